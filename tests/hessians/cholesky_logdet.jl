# hessian: f([0.8, 0.3, 1.5])
using LinearAlgebra
# Second derivatives through a Cholesky factorisation, its solve and its log-determinant.
function f(v)
    A = [v[1]^2+1.0 v[2] 0.1; v[2] v[3]^2+1.0 v[1]*v[3]; 0.1 v[1]*v[3] 3.0]
    C = cholesky(A)
    logdet(C) + sum(C \ [1.0, 2.0, 0.5])
end
