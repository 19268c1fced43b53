# Prefix `√`, `∛` and `∜` are Base's `sqrt`, `cbrt` and `fourthroot`, with Julia's precedence:
# the power after them is inside (`√x^2 == √(x^2)`), a juxtaposition outside (`√2x == (√2)x`).
x = 4.0
println(√x)
println(√x^2)
println(√2x)
println(2√x)
println(x√x)
println(√-(-x))
println(√(x))
println(√(x)^2)
println(-√x)
println(√√16.0)
println(∛27.0, " ", ∛-8.0, " ", ∜16.0, " ", ∜81)
println(√4, " ", typeof(√4))
println(map(√, [1.0, 4.0, 9.0]))
println((√) === sqrt, " ", typeof(∛))
println(√(x) + 1, " ", √x * 3)
println(√-1.0)
