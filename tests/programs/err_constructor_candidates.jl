# Calling a type lists its own constructors, as Julia does.
struct Point{T<:Real}
    x::T
    y::T
end
println(Point(1, 2))
Point(1, 2.5)
