# An object with call methods that none matches.
struct Scale
    a::Float64
end
(s::Scale)(x::Float64) = s.a * x
s = Scale(2.0)
println(s(1.5))
s(1)
