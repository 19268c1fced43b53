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
