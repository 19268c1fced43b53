# hessian: f([0.8, 0.3, 1.5, -0.4])
# hessian: destructured([0.4, -0.6, 0.3])
using LinearAlgebra
# Second derivatives through triangular solves (both triangles, transposed), a Cholesky
# factorisation and a general solve.
function f(v)
    M = [v[1]+2.0 v[2] v[3]; v[4] v[1]*v[2]+3.0 0.5; 0.2 v[3] 2.5]
    L = LowerTriangular(M)
    b = [1.0, v[4], 0.5]
    K = M' * M + I
    C = cholesky(K)
    sum(L \ b) + sum(abs2, UpperTriangular(M)' \ b) + logdet(C) + sum(C \ b) + sum(M \ b)
end
# Factorisations destructured into their factors.
function destructured(v)
    H = tanh.([1.0 2.0; -1.0 0.3; 0.2 0.1] .* v[1:2]' .+ v[3])
    Q, R = qr(H)
    L, U = cholesky(Symmetric(H' * H + I))
    Lf, Uf, p = lu([v[1]+2.0 v[2]; 0.5 v[3]-3.0])
    norm(R) + logdet(L * U) + sum(Uf) + sum(Lf[p, :])
end
