# Reading a field `new` left undefined is Julia's UndefRefError.
struct Lazy
    a::Float64
    b::Vector{Float64}
    Lazy(a) = new(a)
end
l = Lazy(1.0)
println(l.a)
println(l.b)
