# `isapprox` with Julia's default tolerances (zero for integers), against `λI`, and `begin`
# in indices.
using LinearAlgebra
A = [2.0 1.0; 1.0 3.0]
println(inv(A) * A ≈ I, " ", A ≈ I, " ", I ≈ [1.0 0.0; 0.0 1.0 + 1e-12], " ", isapprox(A, 2I; atol = 2))
println(10^9 ≈ 10^9 + 1, " ", 1.0 ≈ 1.0 + 1e-10, " ", 1 ≈ 1.0 + 1e-10, " ", [1, 2] ≈ [1, 2], " ", [1, 2] ≈ [1, 3], " ", isapprox(1, 2; atol = 1.5))
x = [1.0, 2.0]
println(x[begin], " ", x[begin:end-1], " ", (3, 4, 5)[end], " ", (a = 1, b = 2)[end], " ", A[begin, end])
