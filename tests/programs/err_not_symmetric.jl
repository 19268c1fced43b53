# Cholesky needs an exactly symmetric matrix.
using LinearAlgebra
C = cholesky([2.0 1.0; 1.0000001 2.0])
