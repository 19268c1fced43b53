f(x::Int, y::Int) = x + y
f(x::Float64) = x
println(f(1, 2))
f(1.0, 2.0)
