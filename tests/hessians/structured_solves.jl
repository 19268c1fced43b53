# hessian: f([1.5, 0.4, -0.3])
using LinearAlgebra
# Second derivatives through an LU solve, a triangular solve and a diagonal log-determinant.
function f(v)
    A = [v[1]+2.0 v[2] 0.5; v[3] 2.0 v[1]*v[2]; 0.1 0.3 3.0]
    b = [1.0, v[2], 2.0]
    F = lu(A)
    sum(F \ b) + sum(UpperTriangular(A) \ b) + logdet(Diagonal(v .^ 2 .+ 1.0)) + opnorm(A, 1)
end
