# The inverse trigonometric and hyperbolic functions of complex numbers, on both sides of
# their branch cuts (the sign of a zero part picks the side) and at their special values.
zs = [0.5 + 0.25im, -2.0 + 1.0im, 3.0 - 0.5im, 0.0 + 0.0im, 1.0 + 0.0im, -1.5 - 2.5im,
      2.0 + 0.0im, 2.0 - 0.0im, -0.0 - 3.0im, 0.0 - 3.0im]
for z in zs
    println(z, ": ", asin(z), ", ", acos(z), ", ", atan(z))
    println("    ", asinh(z), ", ", acosh(z), ", ", atanh(z))
end
println(asin(1 + 2im), " ", atanh(1.0 + 0.0im), " ", acos(Inf + 0.0im), " ", asin(complex(Inf, Inf)))
println(sin(asin(0.3 + 0.7im)) ≈ 0.3 + 0.7im, " ", tanh(atanh(-0.2 + 1.1im)) ≈ -0.2 + 1.1im)
