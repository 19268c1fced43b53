# `using Base.MathConstants` makes the constants names of their own; a list after `:` only those.
using Base.MathConstants
println(γ)
println(eulergamma + 1)
println(2φ)
println(e^2)
f(x) = x * catalan + golden
println(f(2.0))
g() = γ + 1
println(g())
