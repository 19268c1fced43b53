# hessian: f([1.0, 2.0, 3.0, 4.0, 5.0, 6.5, 1.0, 2.0])
using LinearAlgebra
# Second derivatives through the minimum-norm solution of a wide system, a tall least-squares
# solve (the same matrix transposed) and a rectangular LU factorisation.
function f(v)
    A = [v[1] v[2] v[3]; v[4] v[5] v[6]]
    x = A \ [v[7], v[8]]
    y = copy(A') \ [1.0, v[7], 2.0]
    F = lu(copy(A'))
    sum(abs2, x) + sum(y) * x[1] + sum(abs2, F.U)
end
