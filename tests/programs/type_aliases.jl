# Type aliases (const V = Vector{Float64}), NTuple in signatures and as values, Vararg parameters.
const V = Vector{Float64}
const Num = Union{Float64, Int64}
const RealVec = AbstractVector{<:Real}
g(x::V) = sum(x)
h(x::Num) = x + 1
k(v::RealVec) = length(v)
println(g([1.0, 2.0]), " ", h(2), " ", h(2.5), " ", k([1, 2, 3]), " ", V, " ", [1.0] isa V)
w = V(undef, 2)
println(length(w), " ", typeof(w))
p(t::NTuple{2,Float64}) = t[1] * t[2]
println(p((2.0, 3.0)), " ", NTuple{3,Int64}, " ", (1, 2, 3) isa NTuple{3,Int64})
g(xs::Vararg{Float64}) = sum(xs)
h(a, rest::Vararg) = length(rest)
println(g(1.0, 2.0, 3.5), " ", h(1, 2, 3), " ", h(1))
println(typeof((1, 2, 3, 4)), " ", NTuple{5,Float64}, " ", typeof((1.0, 2.0, 3.0)))
