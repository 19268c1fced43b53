# A Diagonal matrix with a zero on its diagonal has no inverse.
using LinearAlgebra
D = Diagonal([1.0, 0.0, 3.0])
println(inv(D))
