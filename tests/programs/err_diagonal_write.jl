# Writing a nonzero value off the diagonal of a Diagonal matrix.
using LinearAlgebra
D = Diagonal([1.0, 2.0])
D[1, 2] = 1.5
