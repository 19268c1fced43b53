# check: gmm_loglik([0.2, -1.0, 1.5, -0.3, 0.4])
# check: mixture_cdf_and_moments([0.5, 1.2, 0.8])
# check: mv_mixture([0.3, -0.2, 0.6])
# check: fitted_log_likelihood([1.2, 0.7, 2.9, 1.8, 0.4, 3.3, 1.1])
# check: weighted_and_multivariate_fits([1.2, 0.7, 2.9, 1.8, 0.4, 3.3, 1.1])
# A Gaussian mixture's log likelihood as a first draft writes it with Distributions'
# `MixtureModel` (weights through a logistic, scales through exp), its distribution function
# and moments, a mixture of multivariate normals, and maximum-likelihood fits differentiated
# with respect to the data.
using Distributions, LinearAlgebra
const data = [-1.2, -0.8, 0.1, 1.9, 2.4, 2.2, -1.5, 0.3]
function gmm_loglik(θ)
    w = 1 / (1 + exp(-θ[1]))
    m = MixtureModel([Normal(θ[2], exp(θ[4])), Normal(θ[3], exp(θ[5]))], [w, 1 - w])
    sum(logpdf.(m, data))
end
function mixture_cdf_and_moments(x)
    m = MixtureModel(UnivariateDistribution[Gamma(x[2], 1.0), LogNormal(x[1], x[3]), Exponential(x[2])], [0.2, 0.5, 0.3])
    cdf(m, 1.3) + mean(m) + var(m) + logpdf(m, x[3])
end
function mv_mixture(x)
    m = MixtureModel([MvNormal([x[1], 0.0], [1.0 x[3]; x[3] 2.0]), MvNormal([1.0, x[2]], [1.5 0.0; 0.0 0.5])], [0.35, 0.65])
    logpdf(m, [0.2, 0.1]) + sum(mean(m))
end
function fitted_log_likelihood(x)
    n, g = fit(Normal, x), fit(Gamma, x)
    sum(logpdf.(n, x)) + sum(logpdf.(g, x)) + mean(fit(LogNormal, x)) + fit(Exponential, x).θ
end
function weighted_and_multivariate_fits(x)
    w = [1.0, 2.0, 0.5, 1.5, 1.0, 0.7, 1.2]
    b = fit_mle(Beta, x ./ 4)
    F = fit(MvNormal, reshape(x[1:6], 2, 3))
    params(b)[1] + logpdf(fit(Normal, x, w), 1.0) + logdet(cov(F)) + shape(fit(Gamma, x, w))
end
