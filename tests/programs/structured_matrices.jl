# Diagonal, Symmetric and triangular matrices; LU factors; diagm with pairs; operator norms;
# in-place products and solves.
using LinearAlgebra
D = Diagonal([1.0, 2.0, 4.0])
println(D)
println(typeof(D), " ", size(D), " ", D[2, 2], " ", D[1, 2], " ", length(D))
x = [1.0, 1.0, 2.0]
println(D * x, " ", D \ x, " ", det(D), " ", tr(D))
println(inv(D), " ", 2D, " ", D + I)
println(D * D == Diagonal([1.0, 4.0, 16.0]), " ", typeof(D * D), " ", typeof(3.0 * D))
D[2, 2] = 5.0
D[1, 3] = 0.0
println(D.diag, " ", diag(D), " ", Matrix(D))
A = [1.0 2.0; 3.0 4.0]
println(Symmetric(A), " ", Symmetric(A) * [1.0, 1.0], " ", issymmetric(Symmetric(A)))
L = LowerTriangular(A)
U = UpperTriangular(A)
println(L, " ", U, " ", L \ [1.0, 7.0], " ", U \ [4.0, 8.0])
println(det(L), " ", det(U), " ", L * [1.0, 1.0], " ", typeof(L'), " ", L' == U')
F = lu([2.0 1.0; 4.0 3.0])
println(F.L, " ", F.U, " ", F.p, " ", F.P, " ", F.ipiv, " ", F.info, " ", issuccess(F))
println(F \ [3.0, 7.0], " ", det(F), " ", F.P * [2.0 1.0; 4.0 3.0] == F.L * F.U)
println(diagm(0 => [1, 2], 1 => [3]), " ", diagm(2, 3, 0 => [1.0, 2.0]), " ", diagm(-1 => [5.0]))
p = "a" => 1
k, v = p
println(p, " ", typeof(p), " ", first(p), " ", last(p), " ", k, " ", v, " ", p[2])
println(opnorm([3.0 0.0; 0.0 -4.0]), " ", opnorm([1.0 -2.0; 3.0 4.0], 1), " ", opnorm([1.0 -2.0; 3.0 4.0], Inf))
println(svdvals([3.0 0.0; 0.0 -4.0]), " ", isdiag(D), " ", isdiag(A))
C = zeros(2, 2)
mul!(C, A, A)
println(C)
mul!(C, A, [1.0 0.0; 0.0 1.0], 2.0, 1.0)
println(C)
b = [3.0, 7.0]
ldiv!(F, b)
y = zeros(2)
ldiv!(y, L, [1.0, 7.0])
println(b, " ", y)
# The lower triangle defines a `Symmetric(A, :L)`.
A3 = [1.0 2.0 3.0; 4.0 5.0 6.0; 7.0 8.0 10.0]
SL = Symmetric(A3, :L)
SU = Symmetric(A3, :U)
println(SL, " ", SL[1, 3], " ", SU[1, 3], " ", SL * [1.0, 2.0, 3.0])
println(SL + SU, " ", 2SL, " ", -SL == -Matrix(SL), " ", copy(SL) == SL)
println(Float32[3 1; 1 2] \ [1.0, 2.0], " ", eltype(Float32[3 1; 1 2] \ Float32[1, 2]))
