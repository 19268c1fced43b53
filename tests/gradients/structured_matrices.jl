# check: diag_model([0.5, 1.2, -0.3])
# check: triangular_solves([0.9, 0.4, 1.3, -0.2])
# check: lu_model([2.0, 0.3, -0.5, 1.5])
# check: norms_and_products([1.0, 0.4, -0.6, 2.0])
# check: symmetric_quad([0.7, -0.2, 1.1])
# check: least_squares([0.3, 1.2, -0.4, 0.8])
using LinearAlgebra
# Diagonal scaling, solves and determinants.
function diag_model(v)
    D = Diagonal(exp.(v))
    x = [1.0, 2.0, 3.0]
    A = [1.0 0.5 0.0; 0.2 1.0 0.1; 0.0 0.3 2.0]
    sum(D * x) + sum(D \ x) + logdet(D) + sum(A * D) + tr(inv(D) + 2.0 * D) + det(D)
end
# Triangular matrices: the entries outside the triangle take no part.
function triangular_solves(v)
    M = [v[1] v[2]; v[3] v[4]] + 3.0 * I
    L = LowerTriangular(M)
    U = UpperTriangular(M)
    b = [1.0, -2.0]
    sum(L \ b) + sum(U \ b) + sum(L * b) + logdet(U) + det(L)
end
# LU factorisation: solve, determinant, and the factors themselves.
function lu_model(v)
    A = [v[1] v[2] 1.0; v[3] v[4] 0.5; 0.2 1.0 3.0]
    F = lu(A)
    b = [1.0, 2.0, 3.0]
    sum(F \ b) + det(F) + sum(F.L * F.U) + logabsdet(F)[1]
end
# Operator norms, singular values, in-place products and diagonals built from pairs.
function norms_and_products(v)
    A = [v[1] v[2]; v[3] v[4]; 1.0 0.5]
    C = zeros(2, 2)
    mul!(C, A', A)
    B = diagm(0 => v[1:2], 1 => [v[3]])
    opnorm(A) + opnorm(A, 1) + opnorm(A, Inf) + sum(svdvals(A)) + sum(C) + sum(B * B)
end
# A quadratic form with a symmetric matrix read from its upper triangle.
function symmetric_quad(v)
    A = [v[1] v[2] 0.3; 9.0 v[3] 0.1; 9.0 9.0 2.0]
    S = Symmetric(A)
    x = [1.0, -1.0, 0.5]
    dot(x, S * x) + sum(cholesky(S + 5.0 * I) \ x)
end
# Least squares through `qr` and through `\` with a tall matrix.
function least_squares(v)
    X = [1.0 v[1]; 1.0 v[2]; 1.0 v[3]; 1.0 v[4]; 1.0 2.0]
    y = [0.5, 1.7, -0.2, 1.1, 2.4]
    F = qr(X)
    β = X \ y
    sum(F \ y) + dot(β, β) + sum(F.R) + sum(F.Q' * y) + sum(Matrix(F.Q))
end
