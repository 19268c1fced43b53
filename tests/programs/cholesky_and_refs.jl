# Cholesky factors, solves and determinants; Matrix(I, n, n); Ref cells, also in broadcasts.
using LinearAlgebra
A = [4.0 2.0 0.6; 2.0 5.0 1.0; 0.6 1.0 3.0]
C = cholesky(A)
println(C.U)
println(C.L)
println(C.L * C.U ≈ A, " ", C.U' * C.U ≈ A)
b = [1.0, 2.0, 3.0]
x = C \ b
println(x, " ", A * x ≈ b)
println(logdet(C), " ", logdet(A), " ", det(C), " ", det(A))
println(inv(C) * A ≈ Matrix(I, 3, 3), " ", isposdef(A), " ", isposdef([1.0 2.0; 2.0 1.0]), " ", issymmetric(A))
r = Ref(2.0); r[] += 1.5; println(r[], " ", r, " ", typeof(r))
println([1.0, 2.0] .+ Ref(3.0), " ", map(v -> v * r[], [1.0, 2.0]))
tbl = [10.0, 20.0]
pick(i, t) = t[i]
println(pick.([2, 1, 2], Ref(tbl)))
println(cholesky([1.0 2.0; 2.0 1.0]; check = false).info)
println(Matrix([1 2; 3 4]'), " ", Matrix{Float64}([1 2; 3 4]), " ", Vector(1:3), " ", Matrix(2.0I, 2, 3))
s = Ref(0)
for k in 1:4
    s[] += k
end
println(s[])
# `factors` keeps the factor in the triangle read and the other triangle as it was given.
S = cholesky(Symmetric([4.0 -9.0; 2.0 5.0], :L))
println(S.factors, " ", S.U, " ", S \ [2.0, 1.0])
T = cholesky(Symmetric([4.0 2.0; -9.0 5.0]))
println(T.factors, " ", T.L, " ", cholesky([4.0 2.0; 2.0 5.0]).factors)
println(cholesky(Symmetric([1 2; 2 1]); check = false).info, " ", cholesky(Symmetric(Float32[4 2; 2 5])).U)
println(S)
