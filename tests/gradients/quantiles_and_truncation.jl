# check: truncated_priors([0.4, 1.3, 0.7])
# check: continuous_quantiles([2.5, 1.5, 0.3])
# check: tail_quantiles([3.5, 0.02])
# check: polygammas([1.7, 0.4])
# check: truncated_normal_moments([0.3, 1.2])
# Gradients through truncated distributions (log densities, distribution functions and the
# truncated normal's moments, with infinite bounds), through quantiles found by inverting
# distribution functions (with respect to the parameters and the probability, also far in the
# tails) and through polygamma functions of every order and the Hurwitz zeta function.
using Distributions, SpecialFunctions
function truncated_priors(x)
    μ, σ, τ = x
    logpdf(truncated(Normal(μ, σ), 0, Inf), τ) + logpdf(truncated(Cauchy(0, σ); lower = 0), τ) +
        logpdf(truncated(Gamma(σ, μ + 1), 0.1, 5.0), τ + 0.5) + logcdf(truncated(Normal(μ, σ); upper = 2.0), τ) +
        cdf(truncated(Normal(0.0, σ), -1.0, 1.0), τ - μ) + logccdf(truncated(Exponential(σ), 0.2, 4.0), τ)
end
function continuous_quantiles(p)
    α, θ, q = p
    quantile(Gamma(α, θ), q) + quantile(Beta(α, θ), q) + quantile(TDist(α), q) + quantile(TDist(θ), 1 - q) +
        quantile(Normal(α, θ), q) + quantile(truncated(Normal(α, θ), 0.0, 4.0), q) + quantile(Gamma(θ, α), 0.97)
end
tail_quantiles(p) = quantile(TDist(p[1]), p[2]) + quantile(Gamma(p[1], 2.0), p[2]) + quantile(Beta(p[1], 0.5), 1 - p[2])
polygammas(x) = polygamma(2, x[1]) + polygamma(3, x[1] * x[2]) + x[2] * polygamma(4, x[1] + 2) + zeta(3.5, x[1])
function truncated_normal_moments(x)
    d = truncated(Normal(x[1], x[2]), -0.5, 2.0)
    e = truncated(Normal(x[1], x[2]); lower = 1.0)
    mean(d) + var(d) + mean(e) * std(e)
end
