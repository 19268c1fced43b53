# check: symmetric_eigen([0.3, 1.0, -0.25])
# check: singular_values_and_vectors([1.0, 2.0, 3.0, 4.0, 5.0, 6.5])
# check: wide_svd_and_pinv([1.0, 2.0, 3.0, 4.0, 5.0, 6.5])
using LinearAlgebra
# Distinct eigenvalues and singular values: the decompositions are differentiable there.
function symmetric_eigen(v)
    A = [4.0+v[1] v[2] 0.5; v[2] 3.0 v[3]; 0.5 v[3] 2.0*v[1]]
    λ, V = eigen(A)
    sum(λ .^ 2) + λ[1] * λ[3] + sum(abs2, V[:, 2] .* [1.0, 2.0, 3.0]) + eigmax(Symmetric(A))
end
function singular_values_and_vectors(v)
    B = [v[1] v[2]; v[3] v[4]; v[5] v[6]]
    U, S, V = svd(B)
    sum(S) + S[1]^2 / S[2] + sum(abs2, U[:, 1] .* [1.0, 2.0, 3.0]) + abs2(V[1, 2])
end
function wide_svd_and_pinv(v)
    B = [v[1] v[2] v[3]; v[4] v[5] v[6]]
    F = svd(B)
    sum(F \ [1.0, v[1]]) + sum(pinv(B)) + sum(abs2, F.Vt[1, :] .* [1.0, 2.0, 3.0])
end
