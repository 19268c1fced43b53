# check: hierarchical([0.3, -0.2, 0.9, 1.4, -0.5], [0.4, 0.2, 1.1])
# check: priors([1.7, 0.6, 2.3, 0.35, 4.5])
# check: cdfs([0.7, 1.3, 2.2, 0.4])
# check: discrete_counts([0.3, 2.5, 0.6])
# check: mvnormal_dense([0.2, -0.4, 0.5], [1.1, 0.3, -0.2])
# check: mvnormal_diagonal([0.2, -0.4, 0.5], [0.8, 1.3, 0.6])
# check: simplex_models([1.5, 2.5, 0.8], [0.2, 0.5, 0.3])
# check: student_t_regression([0.5, -1.0], 4.5)
# Log densities of the Distributions package as a model uses them: a hierarchical normal model,
# priors of every family, distribution functions, counts, the multivariate normal with a dense
# and a diagonal covariance, simplex models and a robust regression with a t likelihood.
using Distributions, LinearAlgebra
const ys = [0.8, -0.3, 1.9, 0.4, 1.1]
function hierarchical(θ, hyper)
    μ, τ, σ = hyper[1], exp(hyper[2]), exp(hyper[3])
    lp = logpdf(Normal(0, 5), μ) + logpdf(Exponential(1.0), τ) + logpdf(Gamma(2.0, 1.0), σ)
    lp += sum(logpdf.(Normal(μ, τ), θ))
    lp + sum(logpdf.(Normal.(θ, σ), ys))
end
function priors(p)
    logpdf(Gamma(p[1], p[2]), p[3]) + logpdf(Beta(p[1], p[3]), p[4]) + logpdf(LogNormal(p[2], p[1]), p[5]) +
        logpdf(Cauchy(p[2], p[1]), p[3]) + logpdf(TDist(p[5]), p[4]) + logpdf(Uniform(-p[1], p[3]), p[2]) +
        logpdf(Exponential(p[2]), p[4]) + pdf(Normal(p[2], p[1]), p[4])
end
cdfs(x) = cdf(Normal(x[1], x[2]), x[3]) + cdf(Gamma(x[3], x[1]), x[2]) + cdf(Beta(x[2], x[3]), x[4]) +
    logcdf(Normal(0.0, 1.0), -x[3]) + cdf(TDist(x[3] + 1.0), x[4] - 0.5) + cdf(LogNormal(x[4], x[2]), x[1]) +
    ccdf(Exponential(x[2]), x[1]) + cdf(Cauchy(x[1], x[2]), x[3])
function discrete_counts(p)
    logpdf(Bernoulli(p[1]), 1) + logpdf(Bernoulli(p[1]), 0) + logpdf(Binomial(12, p[3]), 5) +
        logpdf(Poisson(p[2]), 3) + sum(logpdf.(Poisson(p[2] * 2), [0, 1, 4])) + cdf(Poisson(p[2]), 2) +
        cdf(Binomial(7, p[1]), 3)
end
function mvnormal_dense(μ, x)
    A = [1.0 0.2 0.0; 0.2 1.5 0.3; 0.0 0.3 0.9]
    Σ = A + Diagonal(μ .^ 2)
    logpdf(MvNormal(μ, Σ), x) + logpdf(MvNormal(x, A), μ)
end
mvnormal_diagonal(μ, s) = logpdf(MvNormal(μ, Diagonal(s .^ 2)), [0.1, 0.2, 0.3]) +
    logpdf(MvNormal(μ, s[1]^2 * I), [0.3, -0.1, 0.2])
function simplex_models(α, p)
    logpdf(Dirichlet(α), p ./ sum(p)) + logpdf(Categorical(p ./ sum(p)), 2) + sum(mean(Dirichlet(α)) .* p)
end
function student_t_regression(w, ν)
    X = [1.0 0.5; 1.0 -0.3; 1.0 1.2; 1.0 0.1]
    y = [0.9, -0.2, 1.7, 0.3]
    r = y .- X * w
    sum(logpdf(TDist(ν), ri) for ri in r) + logpdf(Gamma(2.0, 10.0), ν)
end
