# Maximum-likelihood fits of the Distributions package (`fit`, `fit_mle`) by the package's
# sufficient statistics and Minka's iteration for the gamma shape, checked on known data and
# on a large sample.
using Distributions, Random
x = [1.2, 0.7, 2.9, 1.8, 0.4, 3.3, 1.1]
println(fit(Normal, x), " ", fit_mle(Normal, x) == fit(Normal, x))
println(fit(LogNormal, x), " ", fit(Exponential, x), " ", fit(Uniform, x))
g = fit(Gamma, x)
println(round(shape(g), digits = 10), " ", round(scale(g), digits = 10), " ", round(mean(g), digits = 12) == round(sum(x) / length(x), digits = 12))
println(fit(Poisson, [1, 0, 3, 2, 2]), " ", fit(Bernoulli, [1, 0, 1, 1]), " ", fit(Bernoulli, [true, false]))
rng = MersenneTwister(11)
h = fit(Gamma, rand(rng, Gamma(2.5, 1.5), 20000))
println(abs(shape(h) - 2.5) < 0.1, " ", abs(scale(h) - 1.5) < 0.1)
# Weighted fits count each observation w[i] times; Beta's `fit` matches moments, `fit_mle`
# maximises the likelihood; categories and multivariate normals.
w = [1.0, 2.0, 1.0]
println(fit(Normal, [1.0, 2.0, 4.0], w) == fit(Normal, [1.0, 2.0, 2.0, 4.0]), " ", fit(Exponential, [1.0, 2.0, 4.0], w), " ", fit(Poisson, [1, 2, 4], w), " ", fit(Bernoulli, [1, 0, 1], w))
println(fit(Gamma, [1.0, 2.0, 4.0], w) == fit(Gamma, [1.0, 2.0, 2.0, 4.0]))
b = [0.2, 0.5, 0.7, 0.4]
println(fit(Beta, b), " ", round.(params(fit_mle(Beta, b)), digits = 8))
println(fit(Categorical, [1, 2, 2, 3, 3, 3]), " ", probs(fit_mle(Categorical, 4, [1, 2, 2])), " ", probs(fit(Categorical, [1, 2, 3], [0.5, 1.0, 2.5])))
X = [0.3 1.2 -0.5 0.8; 0.1 2.0 0.7 -0.3]
F = fit(MvNormal, X)
println(mean(F), " ", round.(cov(F), digits = 10))
println(round.(cov(fit_mle(MvNormal, X, [1.0, 2.0, 0.5, 1.0])), digits = 10))
fit(Normal, [1.0, 2.0], [1.0])
