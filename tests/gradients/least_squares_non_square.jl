# check: wide_solve([1.0, 2.0, 3.0, 4.0, 5.0, 6.5, 1.0, 2.0])
# check: tall_solve([1.0, 3.0, 5.0, 2.0, 4.0, 6.5, 1.0, 2.0, 0.5])
# check: rank_deficient_right_side([1.0, 2.0, 3.0, 4.0])
# check: pivoted_qr_solve([0.5, 3.0, 1.0, 2.0, 0.25, 1.5])
# check: rectangular_lu([1.0, 3.0, 5.0, 2.0, 4.0, 6.5])
using LinearAlgebra
# The minimum-norm solution of a wide system, A⁺ b.
function wide_solve(v)
    A = [v[1] v[2] v[3]; v[4] v[5] v[6]]
    x = A \ [v[7], v[8]]
    sum(abs2, x) + sum(x) + sum(A \ [1.0 0.0; v[1] 1.0])
end
function tall_solve(v)
    A = reshape(v[1:6], 3, 2)
    x = A \ v[7:9]
    sum(abs2, x) + x[1] * x[2]
end
# The matrix has rank 2 whatever the right-hand side: the solution is linear in b.
function rank_deficient_right_side(b)
    C = [1.0 2.0 3.0; 2.0 4.0 6.0; 1.0 1.0 1.0; 0.0 1.0 2.0]
    y = C \ b
    sum(sin.(y)) + sum(abs2, y)
end
function pivoted_qr_solve(v)
    A = [v[1] v[2]; v[3] v[4]; v[5] v[6]]
    F = qr(A, ColumnNorm())
    sum(F \ [1.0, 2.0, v[1]]) + sum(abs2, F.R)
end
function rectangular_lu(v)
    M = reshape(v, 3, 2)
    F = lu(M)
    G = lu(copy(M'))
    sum(abs2, F.L) + sum(F.U) + sum(G.U) * G.L[2, 1]
end
