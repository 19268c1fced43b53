# Scalar fields of mutable structs read and written in loops; abstract fields store values as
# they are, concrete ones convert.
mutable struct P
    x::Float64
    v::Float32
    n::Int64
    b::Bool
end
function step!(p, k)
    for i in 1:k
        p.x += 0.5
        p.v = p.v * 1.0f0 + 1.0f0
        p.n += 2
        p.b = !p.b
    end
    p
end
p = step!(P(1.0, 2.0f0, 3, false), 5)
println(p.x, " ", p.v, " ", p.n, " ", p.b)
mutable struct Q
    a::Real
    s::Any
end
function g(q)
    q.a = 2        # abstract field: stored as is
    q.s = "x"
    q.a += 0.5
    q
end
q = g(Q(1, 2)); println(q.a, " ", q.s, " ", typeof(q.a))
mutable struct R
    y::Float64
end
h(r) = (r.y = 3; r.y)   # converts the Int to Float64
println(h(R(1.0)))
