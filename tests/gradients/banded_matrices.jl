# check: poisson_fit([1.0, 1.5, 0.8, 1.2, 0.9])
# check: tridiag_pivoting(0.4, 2.0)
# check: bidiagonal_loss([1.5, 2.0, 2.5], [0.3, -0.4])
# check: banded_dets([2.0, 3.0, 4.0], [0.5, 0.25])
# Banded solves in models: a finite-difference Poisson problem with a coefficient per cell
# (`SymTridiagonal`), a pivoting `Tridiagonal` solve, bidiagonal substitution, determinants.
using LinearAlgebra
function poisson_fit(k)
    n = length(k)
    h = 1.0 / (n + 1)
    d = (k .+ [k[2:end]; k[end]]) ./ h^2
    e = -k[2:end] ./ h^2
    u = SymTridiagonal(d, e) \ ones(n)
    sum(abs2, u .- 0.05)
end
function tridiag_pivoting(a, b)
    T = Tridiagonal([5.0 * a, 1.0], [a, b, 3.0], [1.0, b])
    x = T \ [1.0, a, 2.0]
    sum(x .^ 2) + sum(T * x)
end
function bidiagonal_loss(d, e)
    U = Bidiagonal(d, e, :U)
    L = Bidiagonal(d, e, :L)
    sum(U \ [1.0, 2.0, 3.0]) + sum(L \ [3.0, 2.0, 1.0]) + sum(U * d)
end
banded_dets(d, e) = det(SymTridiagonal(d, e)) + logdet(Tridiagonal(e, d, 2 .* e)) + log(det(Bidiagonal(d, e, :L)))
