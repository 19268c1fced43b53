# QR factors and least squares (values rounded: LAPACK's blocked QR can differ in the last bits).
using LinearAlgebra
A = [3.0 1.0; 4.0 2.0; 0.0 2.0]
F = qr(A)
r(x) = round.(x, digits = 10)
println(r(F.R), " ", size(F.Q), " ", size(Matrix(F.Q)))
println(r(Matrix(F.Q) * F.R), " ", Matrix(F.Q)' * Matrix(F.Q) ≈ [1.0 0.0; 0.0 1.0])
println(r(F.Q * [1.0, 0.0, 0.0]), " ", F.Q' * [3.0, 4.0, 0.0] ≈ [-5.0, 0.0, 0.0])
println(r(F \ [1.0, 2.0, 3.0]), " ", r(A \ [1.0, 2.0, 3.0]))
X = [ones(5) [1.0, 2.0, 3.0, 4.0, 5.0]]
y = [2.1, 3.9, 6.2, 7.8, 10.1]
println(r(X \ y))
println(r(qr([2.0 0.0; 0.0 3.0]) \ [4.0, 9.0]))
