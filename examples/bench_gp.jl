# A benchmark of the factorisation kernels, beside a hand-written Rust version in the
# benchmark suite: a Gaussian process's negative log marginal likelihood on 64 points as a
# function of the log length scale and log signal variance (`cholesky`, a solve, `logdet`).
#   mooncake bench examples/bench_gp.jl --call 'gp_nlml([0.0, 0.0])'
using LinearAlgebra

const gp_x = [0.1 * i for i in 1:64]
const gp_y = [sin(0.3 * i) for i in 1:64]
function gp_nlml(θ)
    ℓ = exp(θ[1])
    σ2 = exp(θ[2])
    K = [σ2 * exp(-(a - b)^2 / (2ℓ^2)) for a in gp_x, b in gp_x] + 0.1I
    C = cholesky(K)
    α = C \ gp_y
    0.5 * dot(gp_y, α) + 0.5 * logdet(C)
end
