# A property missing from the value is an error naming it.
struct Point
    x::Float64
    y::Float64
end
(; x, z) = Point(1.0, 2.0)
