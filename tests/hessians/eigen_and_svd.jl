# hessian: f([0.3, 1.0, -0.25])
using LinearAlgebra
# Second derivatives through a symmetric eigendecomposition and an SVD.
function f(v)
    A = [4.0+v[1] v[2] 0.5; v[2] 3.0 v[3]; 0.5 v[3] 2.0*v[1]]
    λ, V = eigen(A)
    S = svdvals(A[:, 1:2])
    sum(λ .^ 2) + λ[1] * λ[3] + abs2(V[2, 3]) + sum(svd(A[1:2, :]).S) + S[1] * S[2]
end
