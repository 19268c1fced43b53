# Writing into the upper triangle of a LowerTriangular matrix.
using LinearAlgebra
L = LowerTriangular(zeros(2, 2))
L[2, 1] = 1.0
L[1, 2] = 2.0
