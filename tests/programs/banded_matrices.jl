# Tridiagonal, SymTridiagonal and Bidiagonal matrices: solves, products, determinants.
using LinearAlgebra
T = Tridiagonal([1.0, 2.0, 3.0], [7.0, 8.0, 9.0, 1.0], [4.0, 5.0, 6.0])
println(T)
println(size(T), " ", T[2, 1], " ", T[1, 3], " ", diag(T), " ", Matrix(T) == [7.0 4 0 0; 1 8 5 0; 0 2 9 6; 0 0 3 1])
b = [1.0, 2.0, 3.0, 4.0]
x = T \ b
println(x)
println(T * x ≈ b, " ", T * b, " ", Matrix(T) \ b ≈ x)
println(det(T), " ", det(Matrix(T)) ≈ det(T), " ", logdet(Tridiagonal([1.0, 1.0], [4.0, 5.0, 6.0], [2.0, 2.0])))
P = Tridiagonal([5.0, 1.0], [1.0, 2.0, 3.0], [1.0, 1.0])
println(P \ [1.0, 1.0, 1.0], " ", P \ [1.0 0.0; 0.0 1.0; 1.0 1.0])
S = SymTridiagonal([3.0, 4.0, 5.0], [1.0, 2.0])
println(S)
println(S \ [6.0, 7.0, 8.0])
println(det(S), " ", logdet(S) ≈ log(det(S)), " ", S * [1.0, 1.0, 1.0], " ", tr(S))
U = Bidiagonal([1.0, 2.0, 3.0], [4.0, 5.0], :U)
L = Bidiagonal([1.0, 2.0, 3.0], [4.0, 5.0], :L)
println(U)
println(U \ [1.0, 2.0, 3.0], " ", L \ [1.0, 2.0, 3.0], " ", det(U), " ", U * [1.0, 1.0, 1.0], " ", Matrix(L))
println(2.0 * T - T == T, " ", (T + T).d, " ", transpose(T)[1, 2], " ", typeof(S))
n = 6
h = 1.0 / (n + 1)
A = SymTridiagonal(fill(2.0 / h^2, n), fill(-1.0 / h^2, n - 1))
u = A \ ones(n)
println(round.(u, digits = 6))
try
    Tridiagonal([1.0], [1.0, 2.0, 3.0], [1.0, 2.0])
catch e
    println(e)
end
try
    Tridiagonal([0.0, 0.0], [1.0, 0.0, 3.0], [0.0, 0.0]) \ [1.0, 2.0, 3.0]
catch e
    println(e)
end
