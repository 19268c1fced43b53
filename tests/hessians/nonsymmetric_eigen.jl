# hessian: f([0.3, -1.2, 0.8])
using LinearAlgebra
# Second derivatives through the eigenvalues of a non-symmetric matrix (one real eigenvalue and
# a complex conjugate pair) and through one eigenvector.
function f(p)
    A = [p[1] 2.0 0.5; -3.0 1.0+p[2] 2.0; 0.5 0.25 4.0+p[3]*p[1]]
    F = eigen(A)
    λ = F.values
    sum(abs2, λ) + real(λ[1])^2 * imag(λ[2]) + abs2(F.vectors[2, 3])
end
