# Determinants, inverses, triangles, diagonals, Kronecker products and p-norms.
using LinearAlgebra
A = [4.0 1.0 2.0; 1.0 3.0 0.5; 2.0 0.5 5.0]
println(det(A), " ", logabsdet([2.0 0.0; 0.0 -4.0]), " ", det([1.0 2.0; 2.0 4.0]), " ", det([0.0 1.0; 1.0 0.0]))
println(inv([2.0 0.0; 0.0 4.0]), " ", tr(A), " ", diag(A), " ", diag([1 2 3; 4 5 6]))
println(triu(A), " ", tril(A), " ", triu(A, 1), " ", tril(A, -1))
println(diagm([1.0, 2.0]), " ", kron([1 2; 3 4], [1 1]))
x = [3.0, -4.0, 1.0]
println(norm(x, 1), " ", norm(x, Inf), " ", norm([3.0, 4.0], 2), " ", norm(Float64[], Inf))
println(norm([1.0 2.0; 3.0 4.0], 1))
println(logdet([2.0 0.0; 0.0 8.0]))
