# check: objective(fill(0.5, 49))
# A first draft of a PDE-constrained fit: the 1D Poisson equation by second-order finite
# differences, solved with a `Tridiagonal` matrix, with a smoothness penalty on the source.
using LinearAlgebra

# -u'' = f on (0, 1), u(0) = u(1) = 0, second-order finite differences.
const n = 49
const h = 1 / (n + 1)
const xgrid = [i * h for i in 1:n]
const u_obs = @. sin(π * xgrid) + 0.1 * xgrid * (1 - xgrid)

function solve_poisson(f)
    d = fill(2 / h^2, n)
    e = fill(-1 / h^2, n - 1)
    A = Tridiagonal(e, d, e)
    A \ f
end

function objective(f)
    u = solve_poisson(f)
    0.5 * h * sum(abs2, u - u_obs) + 1e-4 * h * sum(abs2, diff(f)) / h^2
end
