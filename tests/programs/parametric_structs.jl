struct Pair2{T}
    first::T
    second::T
end
p = Pair2(1.0, 2.0)
println(p, " ", typeof(p))
q = Pair2(1, 2)
println(q, " ", typeof(q))
r = Pair2{Float64}(1, 2)
println(r)
swap(p::Pair2{T}) where {T} = Pair2{T}(p.second, p.first)
println(swap(q))
struct Box{T<:Real}
    v::T
end
println(Box(3).v + Box(0.5).v)
struct Mixed{A,B}
    a::A
    b::B
end
m = Mixed(1, "s")
println(m, " ", typeof(m))
mutable struct Cell{T}
    val::T
end
c = Cell(1.5)
c.val += 1
println(c.val)
describe(x::Pair2{Int64}) = "int pair"
describe(x::Pair2) = "some pair"
println(describe(q), "; ", describe(p))
