# Rounding to decimal digits or significant digits, as Julia computes it.
println(round(3.14159, digits = 2), " ", round(2.675, digits = 2), " ", round(0.1 + 0.2, digits = 1))
println(round(1234.5678, digits = -2), " ", round(pi, sigdigits = 3), " ", round(123456.0, sigdigits = 2))
println(floor(3.789, digits = 1), " ", ceil(3.721, digits = 2), " ", trunc(-3.789, digits = 1))
println(round(1.5), " ", round(2.5), " ", round(-0.5), " ", round(1.0e300, digits = 20), " ", round(5.5, digits = 0))
println(round(Float32(2.3456), digits = 2), " ", round(0.0, sigdigits = 2), " ", round(17.0, digits = 1, base = 2))
f(x) = round(x * 100.0; digits = 1) / 100.0 + x
println(f(0.123456))
