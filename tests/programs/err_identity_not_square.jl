# Adding the identity to a matrix that is not square.
using LinearAlgebra
A = [1.0 2.0 3.0; 4.0 5.0 6.0]
println(A + I)
