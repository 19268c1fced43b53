using LinearAlgebra
# Factorisations destructure into their factors, in LinearAlgebra's order.
A = [4.0 2.0; 2.0 5.0]
L, U = cholesky(A)
println(L)
println(U)
Lf, Uf, p = lu([4.0 3.0; 6.0 3.0])
println(Lf, " ", Uf, " ", p)
Q, R = qr(A)
println(Q * R ≈ A, " ", size(R))
Qp, Rp, pp = qr([1.0 3.0; 2.0 4.0], ColumnNorm())
println(pp)
λ, V = eigen(Symmetric(A))
println(V * Diagonal(λ) * V' ≈ A)
Us, S, Vs = svd(A)
println(Us * Diagonal(S) * Vs' ≈ A)
a, b = cholesky(A)
println(typeof(a), " ", typeof(b))
println(rank([1.0 2.0; 2.0 4.0]), " ", rank([1 0; 0 1]), " ", rank([1.0 2.0; 3.0 4.0; 5.0 6.0]), " ", rank(zeros(2, 2)), " ", rank([1.0, 0.0]), " ", rank([1.0 1e-20; 0.0 1e-20]; atol = 1e-10), " ", iszero([0.0, -0.0]))
