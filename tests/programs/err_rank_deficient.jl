# Least squares of a matrix with dependent columns.
using LinearAlgebra
X = [1.0 2.0; 2.0 4.0; 3.0 6.0]
println(X \ [1.0, 2.0, 3.0])
