# Solving with a singular matrix: the zero pivot LU finds.
using LinearAlgebra
A = [1.0 2.0; 2.0 4.0]
println(A \ [1.0, 2.0])
