# `fma` rounds once (so the tiny error of 0.1 * 10 survives); `muladd` may round twice.
println(fma(0.1, 10.0, -1.0), " ", 0.1 * 10.0 - 1.0)
println(fma(1, 2, 3), " ", fma(2.0, 3, 1), " ", typeof(fma(1.0f0, 2.0f0, 3.0f0)), " ", fma(0.1f0, 10.0f0, -1.0f0))
f(x) = fma(x, x, -1.0)
println(f(1.0000001))
println(reinterpret(Int64, 1.0), " ", reinterpret(Float64, 4611686018427387904), " ", reinterpret(Int64, -0.0))
