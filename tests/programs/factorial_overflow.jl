# `factorial` of an Int64 past 20! is an OverflowError, as in Julia.
f(n) = factorial(n) ÷ 2
println(f(20))
println(f(21))
