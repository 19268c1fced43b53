# A keyword a callable object's method does not declare is a MethodError naming its type.
struct Scale
    a::Float64
end
(s::Scale)(v; by = 1.0) = s.a * v + by
println(Scale(2.0)(1.0; by = 0.5))
Scale(2.0)(1.0; bad = 2)
