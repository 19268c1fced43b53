# A global named like a library constant the program has not used is the program's own;
# library code keeps the library's constant.
using LinearAlgebra
I = [1, 3]
x = [10, 20, 30]
println(x[I])
f() = I
println(f(), " ", inv([2.0 0.0; 0.0 4.0]))
for k in 1:2
    global I
    I = I .+ 1
end
println(I)
g() = (global I = [7]; nothing)
g()
println(I, " ", pi, " ", Inf)
