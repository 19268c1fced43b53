# check: cholesky_of_input([4.0 1.0 0.5; 1.0 3.0 -0.25; 0.5 -0.25 2.0])
# check: lower_symmetric([4.0 9.0 -7.0; 1.0 3.0 5.0; 0.5 -0.25 2.0])
# check: transposed_triangles([0.9, 0.4, 1.3, -0.2, 0.7, 0.1])
# check: matrix_right_sides([1.5, -0.3, 0.8, 0.2])
# check: cholesky_inverse_and_det([0.6, -0.4, 1.1])
# check: general_solves([2.0, 0.3, -0.5, 1.5])
# check: single_precision(Float32[1.2, -0.4, 0.7])
# check: destructured_factors([0.4, -0.6, 0.3])
using LinearAlgebra
# A matrix passed in directly, as a `Symmetric` view of its upper (or lower) triangle: the
# factorisation reads that triangle only, so the gradient of the other entries is zero.
function cholesky_of_input(A)
    C = cholesky(Symmetric(A))
    logdet(C) + sum(C \ [1.0, -1.0, 0.5]) + sum(abs2, C.L) + sum(C.factors)
end
function lower_symmetric(A)
    C = cholesky(Symmetric(A, :L))
    logdet(C) + sum(C \ [1.0, -1.0, 0.5]) + sum(abs2, C.U) + sum(C.factors)
end
# Solves with transposed and adjoint triangular matrices, vector right-hand sides.
function transposed_triangles(v)
    M = [v[1] v[2] v[3]; v[4] v[5] v[6]; 0.2 -0.1 0.4] + 2.0 * I
    L = LowerTriangular(M)
    U = UpperTriangular(M)
    b = [1.0, v[2], -0.5]
    sum(L' \ b) + sum(transpose(U) \ b) + sum(abs2, U' \ (L \ b))
end
# Matrix right-hand sides, and a right-hand side of another element type.
function matrix_right_sides(v)
    A = [v[1]+3.0 v[2]; v[3] v[4]+2.0]
    B = [1.0 v[1]; v[4] -2.0]
    sum(LowerTriangular(A) \ B) + sum(UpperTriangular(A) \ [1 2; 3 4]) + sum(A \ B)
end
function cholesky_inverse_and_det(v)
    K = [2.0+v[1]^2 v[2] 0.3; v[2] 1.5 v[3]*0.1; 0.3 v[3]*0.1 2.5]
    C = cholesky(K)
    sum(inv(C)) + det(C) + sum(C.U) + sum(C.factors)
end
# `\`, `inv` and `lu` of a general matrix (row exchanges included: the first pivot is small).
function general_solves(v)
    A = [0.1*v[1] v[2] 1.0; v[3] v[4] 0.5; 2.0 1.0 3.0]
    b = [1.0, 2.0, 3.0]
    sum(A \ b) + sum(inv(A)) + sum(lu(A) \ [b b])
end
function single_precision(v)
    K = [2.0f0+v[1]^2 v[2] 0.1f0; v[2] 1.5f0 v[3]; 0.1f0 v[3] 2.0f0]
    C = cholesky(K)
    logdet(C) + sum(C \ Float32[1, 2, 3]) + sum(LowerTriangular(K) \ v)
end
# Factorisations destructured as a user writes them: `L, U = cholesky(...)`, `Q, R = qr(...)`,
# `L, U, p = lu(...)`, `λ, V = eigen(...)`, `U, S, V = svd(...)`.
function destructured_factors(v)
    H = tanh.([1.0 2.0; -1.0 0.3; 0.2 0.1] .* v[1:2]' .+ v[3])
    Q, R = qr(H)
    L, U = cholesky(Symmetric(H' * H + I))
    Lf, Uf, p = lu([v[1]+2.0 v[2]; 0.5 v[3]-3.0])
    λ, W = eigen(Symmetric(H' * H))
    Us, S, Vs = svd(H)
    norm(R) + logdet(L * U) + sum(Uf) + sum(Lf[p, :]) + sum(λ) + sum(S) + sum(abs2, Us * Vs')
end
