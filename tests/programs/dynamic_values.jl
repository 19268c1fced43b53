# Values of abstract type: `Any` containers, arrays of an abstract element type, `isa`,
# `Union{Nothing, T}` fields, and dispatch at run time.
abstract type Shape end
struct Circle <: Shape
    r::Float64
end
struct Rect <: Shape
    w::Float64
    h::Float64
end
area(c::Circle) = 3.0 * c.r^2
area(r::Rect) = r.w * r.h
describe(x::Float64) = "float $x"
describe(x::Int) = "int $x"
describe(s::Shape) = "shape with area $(area(s))"
xs = Any[1.5, 2, Circle(1.0), "text"]
for x in xs
    if x isa String
        println("a string: ", x)
    else
        println(describe(x))
    end
end
shapes = Shape[Circle(0.5), Rect(2.0, 3.0)]
println(sum(area, shapes))
println(length(shapes), " ", typeof(shapes))
struct Maybe
    v::Union{Nothing, Float64}
end
value_or(m::Maybe, d) = m.v === nothing ? d : m.v
println(value_or(Maybe(nothing), -1.0), " ", value_or(Maybe(2.5), -1.0))
v = Any[]
push!(v, 1)
push!(v, 2.0)
println(v, " ", typeof(v[1]), " ", typeof(v[2]))
println(map(x -> x isa Int ? 2x : x, Any[1, 2.5]))
