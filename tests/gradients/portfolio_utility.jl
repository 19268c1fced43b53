# check: utility(zeros(5))
# check: utility([0.2, -0.1, 0.4, 0.0, -0.3])
# A first draft of a mean-variance portfolio: softmax weights, sample mean and covariance of
# returns from `Statistics`, a quadratic risk term and an absolute-deviation penalty.
using LinearAlgebra, Statistics

const returns = [
    0.012 0.008 -0.004 0.020 0.001
    -0.006 0.011 0.007 -0.010 0.003
    0.015 -0.002 0.009 0.013 -0.001
    0.003 0.006 -0.008 0.004 0.002
    -0.011 0.009 0.012 -0.005 0.004
    0.007 -0.004 0.005 0.016 0.000
    0.010 0.012 -0.003 -0.007 0.003
    -0.002 0.001 0.010 0.009 0.001
]
const μ = vec(mean(returns, dims = 1))
const Σ = cov(returns)
const λ = 5.0

softmax(x) = exp.(x .- maximum(x)) ./ sum(exp.(x .- maximum(x)))

function utility(θ)
    w = softmax(θ)
    ret = dot(w, μ)
    risk = w' * Σ * w
    ret - λ / 2 * risk - 0.001 * sum(abs, w .- 1 / length(w))
end
