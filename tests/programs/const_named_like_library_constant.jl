# A constant named like a library constant is the program's own; library code keeps LinearAlgebra's I.
using LinearAlgebra
const I = [2, 3]
f() = I
println(I, " ", f(), " ", inv([2.0 0.0; 0.0 1.0]))
