a = 1.5f0
b = 2f0
println(a + b, " ", typeof(a + b))
println(a * 2, " ", typeof(a * 2))
println(a + 1.0, " ", typeof(a + 1.0))
println(sqrt(b), " ", typeof(sqrt(b)))
println(Float32(0.1), " ", Float64(Float32(0.1)))
v = Float32[1, 2, 3]
println(sum(v), " ", typeof(sum(v)))
println(1f-5, " ", 1f6)
