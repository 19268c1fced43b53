# Sums of a function over big arrays, whatever the result type; a generator's sum is a left
# fold. (Sums of integers and of floats holding small integers are exact in any order.)
A = [sin(0.1 * i + 0.3 * j) for i in 1:32, j in 1:40]
v = [cos(0.01 * i) for i in 1:1500]
println(sum(x -> x > 0.0, A))
println(typeof(sum(x -> x > 0.0, A)))
println(sum(x -> round(Int, 10x), v))
println(sum(x -> round(10x), A))
println(mapreduce(x -> floor(4x), +, v))
println(sum(x^2 for x in v) === foldl((s, x) -> s + x^2, v[2:end]; init = v[1]^2))
println(sum(x -> 2x, Float32.(v)) isa Float32)
println(sum(x -> [round(x), 2.0], v))
