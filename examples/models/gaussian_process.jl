# The negative log marginal likelihood of a Gaussian process with a squared-exponential
# kernel, as a function of the log length scale and log signal variance.
# mooncake grad examples/models/gaussian_process.jl --call 'nlml(θ0())'
# check: nlml(θ0())
using LinearAlgebra

xs = [0.0, 0.4, 1.1, 1.7, 2.5, 3.0]
ys = [0.1, 0.5, 0.9, 0.8, 0.2, -0.3]
θ0() = [0.0, 0.0]

kernel(a, b, ℓ, σ2) = σ2 * exp(-(a - b)^2 / (2ℓ^2))

function nlml(θ)
    ℓ = exp(θ[1])
    σ2 = exp(θ[2])
    K = [kernel(a, b, ℓ, σ2) for a in xs, b in xs] + 0.01I
    C = cholesky(K)
    α = C \ ys
    0.5 * ys' * α + 0.5 * logdet(C) + 0.5 * length(xs) * log(2π)
end

println("nlml(θ0) = ", nlml(θ0()))
