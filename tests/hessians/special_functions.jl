# Second derivatives through special functions: `erf`, `loggamma`/`gamma` (whose second
# derivative is `trigamma`), `erfinv`, Bessel functions, LogExpFunctions, polygamma of every
# order, a truncated log density and a quantile found by inverting a distribution function.
# hessian: probit([0.3, -1.2, 0.8])
# hessian: gamma_loglik([2.7, 1.4])
# hessian: inverse_and_bessel([0.35, 1.7])
# hessian: stable_logs([0.5, -1.5, 2.0])
# hessian: polygamma_orders([1.7, 0.8])
# hessian: truncated_and_quantile([1.7, 0.8])
using SpecialFunctions, LogExpFunctions, Distributions
probit(x) = sum(log((1 + erf(xi / sqrt(2))) / 2) + erfc(xi)^2 for xi in x)
gamma_loglik(p) = p[1] * log(p[2]) - loggamma(p[1]) + (p[1] - 1) * log(3.0) - p[2] * 3.0 + gamma(p[2]) + lgamma(p[1] + p[2])
inverse_and_bessel(x) = erfinv(x[1])^2 * besselj0(x[2]) + besselj1(x[2]) * erfcinv(x[1])
stable_logs(w) = logsumexp(w) + sum(log1pexp.(w)) + logistic(w[1] * w[2]) + sum(softmax(w) .^ 2) + logit(logistic(w[3]) / 2)
polygamma_orders(x) = digamma(x[1] * x[2]) + trigamma(x[1]) + polygamma(2, x[1] + x[2]) + polygamma(3, x[2] + 1)
truncated_and_quantile(x) = quantile(Gamma(x[1], x[2]), 0.3) + logpdf(truncated(Normal(x[1], x[2]), 0.0, Inf), 0.5)
