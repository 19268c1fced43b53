# check: roughness([0.3, -1.2, 0.8, 2.0, 0.1, -0.5])
# check: weighted_form([0.5, -0.2, 1.5])
# check: kron_features([0.5, -0.2, 1.5])
# check: diff_from_runtime_ranges([0.3, -1.2, 0.8, 2.0, 0.1, -0.5])
# Differences along each dimension of a grid, x' A y as three-argument dot, Kronecker products.
using LinearAlgebra
function roughness(u)
    U = reshape(u, 2, 3)
    sum(abs2, diff(U, dims = 1)) + sum(abs2, diff(U, dims = 2)) + sum(abs2, diff(u))
end
function weighted_form(x)
    A = [2.0 0.5 0.1; 0.3 1.0 0.2; 0.0 0.4 3.0]
    dot(x, A, x .^ 2) + dot(A, x * x')
end
kron_features(x) = sum(abs2, kron(x, [1.0, -2.0])) + sum(kron(x, x') .* 0.5)
# Views through ranges made when the code runs: a tuple of ranges splatted into `view`.
function diff_from_runtime_ranges(x)
    a = reshape(x, 2, 3)
    r = ntuple(i -> i == 2 ? UnitRange(2, 3) : UnitRange(1, 2), 2)
    sum(abs2, view(a, r...))
end
