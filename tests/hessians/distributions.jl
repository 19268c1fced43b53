# Second derivatives of Distributions' log densities: a normal model's curvature (the Laplace
# approximation's Hessian), Gamma and Beta priors (trigamma through `loggamma`), a t likelihood
# and a multivariate normal with a parameter-dependent covariance.
# hessian: normal_model([0.4, -0.3, 0.2])
# hessian: gamma_beta([2.5, 1.5, 0.3])
# hessian: robust([0.5, 3.5])
# hessian: mvn([0.3, -0.2, 0.6])
using Distributions, LinearAlgebra
normal_model(p) = sum(logpdf.(Normal(p[1], exp(p[2])), [0.8, -0.3, 1.9])) + logpdf(Normal(0, 2), p[1]) + logpdf(LogNormal(0.0, 1.0), exp(p[3]))
gamma_beta(p) = logpdf(Gamma(p[1], p[2]), 1.2) + logpdf(Beta(p[1], p[2]), p[3]) + logpdf(Poisson(p[1]), 2)
robust(p) = sum(logpdf(TDist(p[2]), r - p[1]) for r in (0.9, -0.2, 1.7)) + logpdf(Cauchy(p[1], 1.0), 0.5)
mvn(μ) = logpdf(MvNormal(μ, [1.0 0.2 0.0; 0.2 1.5 0.3; 0.0 0.3 0.9] + Diagonal(μ .^ 2)), [0.1, 0.2, 0.3])
