# `isa` against the parametric abstract types written without parameters.
x = [1.0, 2.0]
println(x isa AbstractVector)
println(x isa AbstractMatrix)
println(x isa AbstractArray)
println([1 2; 3 4] isa AbstractMatrix)
println([1 2; 3 4] isa AbstractVector)
println(1:3 isa AbstractVector)
println(1:3 isa AbstractRange)
println(view(x, 1:2) isa AbstractVector)

struct Wrap{T} <: AbstractVector{T}
    p::Vector{T}
end
println(Wrap{Float64}(x) isa AbstractVector)
println(Wrap{Float64}(x) isa AbstractMatrix)

abstract type Shape{T} end
struct Circle{T} <: Shape{T}
    r::T
end
println(Circle(1.0) isa Shape)
println(Circle(1.0) isa Shape{Float64})

f(y) = y isa AbstractVector ? "vector" : "other"
println(f(x), " ", f(1.0), " ", f(1:2))
