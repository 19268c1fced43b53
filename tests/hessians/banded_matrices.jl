# Second derivatives through banded solves and determinants.
# hessian: poisson_energy([1.0, 1.5, 0.8, 1.2])
# hessian: tridiag_mix([0.4, 2.0, 0.7])
using LinearAlgebra
function poisson_energy(k)
    n = length(k)
    A = SymTridiagonal(2 .* k, -k[2:end] ./ 2)
    u = A \ ones(n)
    dot(u, u) + logdet(A)
end
function tridiag_mix(p)
    T = Tridiagonal([5.0 * p[1], p[3]], [p[1], p[2], 3.0], [1.0, p[2]])
    x = T \ [1.0, p[3], 2.0]
    sum(abs2, x) + det(T) + sum(Bidiagonal([p[2], 2.0, p[1]], [p[3], 1.0], :U) \ x)
end
