# check: normal_cdf_loss([0.3, -1.2, 0.8])
# check: gamma_family(2.7, 1.4)
# check: inverse_errors(0.35)
# check: bessel_mix(1.7)
# check: logexp_model([0.5, -1.5, 2.0], [1.0, 0.0, 1.0])
# check: beta_loglik(2.5, 3.5)
# Special functions in a model: a probit likelihood by `erf`, a Gamma and Beta log density by
# `loggamma` and `logbeta`, `erfinv`, Bessel functions, and LogExpFunctions' stable forms.
using SpecialFunctions, LogExpFunctions
Φ(z) = (1 + erf(z / sqrt(2))) / 2
function normal_cdf_loss(x)
    s = 0.0
    for (i, xi) in enumerate(x)
        p = Φ(xi)
        s += isodd(i) ? log(p) : log1p(-p) + erfc(xi)
    end
    s
end
gamma_family(a, b) = loggamma(a) + digamma(b) * a + gamma(b) - lgamma(a + b) + logabsgamma(-a)[1]
inverse_errors(x) = erfinv(x)^2 + erfcinv(x) * x + erfinv(-x / 2)
bessel_mix(x) = besselj0(x) * besselj1(x) + besselj1(x / 3)^2 + besselj0(2x)
function logexp_model(w, y)
    z = w .* 1.5 .- 0.2
    p = logistic.(z)
    sum(y .* log.(p) .+ (1 .- y) .* log1mexp.(log.(p) .- 1e-3)) + logsumexp(z) +
        sum(softmax(z) .* w) + log1pexp(w[1]) + logaddexp(w[2], w[3]) + xlogy(w[1], 2.0 + w[3]^2)
end
beta_loglik(a, b) = sum((a - 1) * log(x) + (b - 1) * log1p(-x) - logbeta(a, b) for x in (0.2, 0.5, 0.7)) + beta(a, b)
