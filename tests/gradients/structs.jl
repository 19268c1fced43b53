# check: f(0.3, 0.9)
struct Point
    x::Float64
    y::Float64
end
norm2(p::Point) = sqrt(p.x^2 + p.y^2)
addp(p::Point, q::Point) = Point(p.x + q.x, p.y + q.y)
f(x, y) = norm2(addp(Point(x, y), Point(y, 2x)))
