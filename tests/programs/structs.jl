struct Point
    x::Float64
    y::Float64
end
p = Point(3, 4)
println(p)
println(p.x, " ", p.y)
dist(p::Point) = sqrt(p.x^2 + p.y^2)
println(dist(p))
struct Untyped
    a
    b
end
u = Untyped(1, "two")
println(u)
println(typeof(u.a), " ", typeof(u.b))
struct Line
    from::Point
    to::Point
end
l = Line(Point(0, 0), Point(1, 1))
println(l)
println(l.to.y)
len(l::Line) = dist(Point(l.to.x - l.from.x, l.to.y - l.from.y))
println(len(l))
println(typeof(p), " ", p isa Point, " ", 1 isa Point)
println(Point(1, 2) == Point(1, 2), " ", Point(1, 2) === Point(1.0, 2.0))
struct Empty end
println(Empty())
