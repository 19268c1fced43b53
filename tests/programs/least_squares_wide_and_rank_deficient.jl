# `A \ b` for a non-square A is the minimum-norm least-squares solution over A's numerical rank
# (values rounded: LAPACK's blocked factorisations can differ in the last bits).
using LinearAlgebra
r(x) = round.(x, digits = 10)
# Dependent columns: of all least-squares solutions, the one of least norm.
X = [1.0 2.0; 2.0 4.0; 3.0 6.0]
println(r(X \ [1.0, 2.0, 3.0]))
# Wide: the solution of least norm among the exact ones.
A = [1.0 2.0 3.0; 4.0 5.0 6.0]
x = A \ [1.0, 2.0]
println(r(x), " ", A * x ≈ [1.0, 2.0])
println(r(A \ [1.0 0.0; 0.0 1.0]))
println(r(qr(A) \ [1.0, 2.0]))
# Rank 2 with four rows and three columns; the residual is orthogonal to the columns.
C = [1.0 2.0 3.0; 2.0 4.0 6.0; 1.0 1.0 1.0; 0.0 1.0 2.0]
b = [1.0, 2.0, 3.0, 4.0]
y = C \ b
println(r(y), " ", r(C' * (C * y - b)) == zeros(3), " ", abs(y[1] - 2y[2] + y[3]) < 1e-12)
F = qr(C, ColumnNorm())
println(F.p, " ", size(F.R), " ", r(F \ b) == r(y), " ", Matrix(F.Q) * F.R ≈ C[:, F.p], " ", C * F.P ≈ C[:, F.p])
println(r(zeros(2, 3) \ [1.0, 2.0]), " ", r([1 1; 1 1; 1 1] \ [1, 2, 3]))
# LU of non-square matrices: P A = L U with L m×min(m, n) and U min(m, n)×n.
for M in ([1.0 2.0; 3.0 4.0; 5.0 6.5], [1.0 2.0 3.0; 4.0 5.0 6.0])
    G = lu(M)
    println(size(G.L), size(G.U), " ", G.p, " ", G.L * G.U ≈ M[G.p, :], " ", r(G.U))
end
println(size(lu([0.0 1.0; 0.0 2.0; 0.0 3.0]; check = false).U), " ", issuccess(lu([0.0 1.0; 0.0 2.0; 0.0 3.0]; check = false)))
lu([1.0 2.0; 3.0 4.0; 5.0 6.0]) \ [1.0, 2.0, 3.0]
