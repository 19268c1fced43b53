# check: gp_nll([0.5, 1.2])
# check: with_ref([0.3, -0.7, 1.1])
using LinearAlgebra
# A Gaussian-process negative log likelihood through `cholesky`: solve and log-determinant.
function gp_nll(θ)
    xs = [0.0, 0.4, 1.1, 1.9]
    y = [0.3, -0.2, 0.8, 0.1]
    n = length(xs)
    K = [θ[2]^2 * exp(-(xs[i] - xs[j])^2 / (2 * θ[1]^2)) for i in 1:n, j in 1:n] + 0.1 * I
    C = cholesky(K)
    α = C \ y
    0.5 * dot(y, α) + 0.5 * logdet(C)
end
# A `Ref` cell accumulating inside the function, and broadcasting over a `Ref`-wrapped table.
function with_ref(w)
    acc = Ref(0.0)
    for x in w
        acc[] += x^2
    end
    scale = (v, t) -> v * t[1]
    acc[] + sum(scale.(w, Ref(w)))
end
