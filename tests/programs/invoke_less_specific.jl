# `invoke`: a method calling a less specific method of its own function, chosen by the
# declared argument types.
area(x::Real) = x^2
area(x::Float64) = 2 * invoke(area, Tuple{Real}, x)
g(x::Number, y) = x + y
g(x::Int64, y) = invoke(g, Tuple{Number, Any}, x, y) * 10
h(xs...) = length(xs)
k(x::Float64) = invoke(h, Tuple{Float64, Float64}, x, x)
abstract type Shape end
struct Square <: Shape
    side::Float64
end
describe(s::Shape) = "a shape"
describe(s::Square) = string("a square, ", invoke(describe, Tuple{Shape}, s))
println(area(3.0), " ", area(3), " ", g(1, 2), " ", k(1.0))
println(describe(Square(2.0)))
try
    invoke(area, Tuple{Int64}, 2.0)
catch e
    println(sprint(showerror, e))
end
