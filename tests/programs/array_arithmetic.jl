# Whole-array arithmetic, adjoints and transposes, the identity `I`, linear solves, `≈` and `⋅`.
using LinearAlgebra
x = [1.0, 2.0, 3.0]
y = [0.5, -1.0, 2.0]
A = [1.0 2.0; 3.0 4.0]
B = [0.5 1.0; -1.0 2.0]
println(x + y)
println(x - y)
println(-x)
println(2x, " ", x * 2, " ", x / 2, " ", 2 \ x)
println(A + B)
println(A - B)
println(A * B)
println(A * [1.0, 1.0])
println(x' * y)
println(x'y)
v = [1.0, 2.0]
println(v' * A * v)
println(A')
println(transpose(x))
println(typeof(x'), " ", typeof(A'), " ", typeof(transpose(A)))
println(size(x'), " ", size(A'), " ", length(A'))
println(x * x')
println(A' * A)
println(2x' + x', " ", typeof(-x'))
C = copy(A)
Ct = C'
Ct[1, 2] = 30.0
println(C)
println(copy(A'), " ", typeof(copy(A')))
println(sum(A'), " ", collect(A') == copy(A'))
println(A + 2I)
println(I - A)
println(3I * v)
println(I)
println([2.0 1.0; 4.0 3.0] \ [4.0, 10.0])
println([2.0 0.0; 1.0 4.0] \ [2.0, 9.0])
println([2.0 0.0; 0.0 4.0] \ [1.0 2.0; 3.0 4.0])
println(B / [2.0 0.0; 0.0 4.0])
println([1.0, 2.0] ≈ [1.0, 2.0 + 1e-12], " ", 1.0 ≈ 1.1, " ", isapprox(1.0, 1.05; atol = 0.1))
println([1.0, 2.0] ⋅ [3.0, 4.0])
println((1:3) + (1:3), " ", 2 * (1:3), " ", -(1:3), " ", (1:3) - (1:3) * 2)
s = 3.0
println(s[1], " ", size(s))
