# check: residual([0.5, -0.2])
# check: quadratic([0.5, -0.2])
# check: rows([0.5, -0.2])
# check: solve([1.0, 2.0])
# check: shifted([1.5, -0.5, 2.0, 1.0])
# check: adjoint_write([1.0, 2.0, 3.0])
# check: triangular_at_the_point([0.0, 1.0])
# check: determinants([2.0, 0.5, -0.3, 1.5])
# Whole-array arithmetic as a model writes it: residuals, quadratic forms, adjoints, solves.
using LinearAlgebra
function residual(w)
    X = [1.0 2.0; 3.0 4.0; 5.0 7.0]
    y = [1.0, -1.0, 2.0]
    r = y - X * w
    sum(abs2.(r)) / length(r)
end
function quadratic(x)
    A = [2.0 1.0; 1.0 3.0]
    x' * A * x + 2x' * x - sum(-x) + x ⋅ x
end
function rows(x)
    B = [1.0 2.0; 3.0 4.0]
    z = x' * B'
    (z * x)[1] + sum(B' * x) + sum(x * x')
end
function solve(b)
    A = [4.0 1.0; 2.0 3.0]
    K = A + 0.5I
    u = K \ b
    L = [2.0 0.0; 1.0 4.0]
    v = L \ (b .* b)
    dot(u, u) + sum(v) + sum((A / K) * b)
end
function shifted(p)
    M = [p[1] p[2]; p[3] p[4]]
    N = M' * M - 2I
    sum(N .* N) + sum(M \ [1.0, 2.0])
end
function adjoint_write(x)
    y = copy(x)
    r = y'
    r[2] = r[1] * r[3]
    sum(y .^ 2)
end
# The matrix is lower triangular only at this point: the solution still depends on M[1, 2].
function triangular_at_the_point(p)
    M = [2.0 p[1]; 0.5 3.0]
    sum(M \ [1.0, p[2]])
end
function determinants(p)
    M = [p[1] p[2]; p[3] p[4]]
    det(M) + logdet(M' * M + I) + tr(inv(M + 3I)) + norm(p, 1) + norm(triu(M), 3) + sum(diagm(p) * p)
end
