# Outer constructors with keyword arguments, as layers of a model are often written.
using Random

struct Dense
    W::Matrix{Float64}
    b::Vector{Float64}
end
Dense(nin::Int, nout::Int; scale = 1.0, bias = 0.0) = Dense(fill(scale / nin, nout, nin), fill(bias, nout))
(d::Dense)(x) = d.W * x .+ d.b

struct Point{T}
    x::T
    y::T
end
Point(r::T; angle = zero(T)) where {T} = Point(r * cos(angle), r * sin(angle))

d = Dense(2, 3)
println(d.W, " ", d.b)
e = Dense(2, 2; bias = 0.5, scale = 4.0)
println(e([1.0, 1.0]))
println(Point(2.0), " ", Point(1.0; angle = π / 2).x < 1e-15)
println(Point(1, 2))
Dense(2, 2; bias = 1, width = 3)
