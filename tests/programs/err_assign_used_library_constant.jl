# Assigning a library constant's name after reading it is Julia's error.
using LinearAlgebra
A = [1.0 2.0; 3.0 4.0]
println(A + I)
I = 5
