# hessian: f([0.3, -1.2, 0.8, 2.0, 0.1, -0.5])
using LinearAlgebra
# Second derivatives through differences along both dimensions of a grid, a three-argument
# dot product and a Kronecker product.
function f(u)
    U = reshape(u, 2, 3)
    A = [2.0 0.5 0.1; 0.3 1.0 0.2; 0.0 0.4 3.0]
    v = u[1:3]
    sum(abs2, diff(U, dims = 2)) * diff(u)[2] + dot(v, A, v .^ 2) + sum(kron(v, v) .^ 3)
end
