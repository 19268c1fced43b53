# A matrix that is not positive definite.
using LinearAlgebra
K = [1.0 2.0; 2.0 1.0]
C = cholesky(K)
