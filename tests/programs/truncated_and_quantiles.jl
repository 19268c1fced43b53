# Truncated distributions (both bounds, one bound, of a discrete distribution), their densities,
# distribution functions, quantiles and truncated-normal moments; quantiles of the gamma, beta,
# Student's t and the discrete distributions; polygamma of any order and the zeta functions.
using Distributions, SpecialFunctions, Random
r(x) = round(x, digits = 10)
d = truncated(Cauchy(0, 5), 0, Inf)
println(d, " ", typeof(d))
println(r(logpdf(d, 1.3)), " ", r(pdf(d, 1.3)), " ", r(cdf(d, 2.0)), " ", r(logcdf(d, 2.0)), " ", r(ccdf(d, 2.0)), " ", r(logccdf(d, 2.0)))
println(logpdf(d, -1.0), " ", cdf(d, -1.0), " ", r(quantile(d, 0.3)), " ", extrema(d), " ", insupport(d, -0.5))
tn = truncated(Normal(1.0, 2.0), -1.0, 4.0)
println(tn, " ", r(mean(tn)), " ", r(var(tn)), " ", r(std(tn)), " ", r(quantile(tn, 0.5)), " ", mode(tn))
tl = truncated(Normal(0.0, 1.0); lower = 2.5)
println(tl, " ", r(mean(tl)), " ", r(var(tl)), " ", r(logpdf(tl, 3.0)), " ", logpdf(tl, 2.0), " ", typeof(tl))
tu = truncated(Normal(); upper = -3.0)
println(tu, " ", r(mean(tu)), " ", r(var(tu)), " ", cdf(tu, -2.0), " ", r(ccdf(tu, -4.0)))
tp = truncated(Poisson(3.0), 2, 6)
println(tp, " ", r(logpdf(tp, 2)), " ", r(pdf(tp, 6)), " ", r(cdf(tp, 4)), " ", logpdf(tp, 7), " ", r(sum(pdf(tp, k) for k in 0:10)))
println(truncated(truncated(Normal(), -2.0, 2.0), 0.0, 3.0), " ", truncated(Normal(), nothing, nothing))
rng = MersenneTwister(7)
xs = [rand(rng, tn) for _ in 1:20000]
ys = [rand(rng, tl) for _ in 1:20000]
println(minimum(xs) >= -1.0, " ", maximum(xs) <= 4.0, " ", abs(sum(xs) / length(xs) - mean(tn)) < 0.05, " ", minimum(ys) >= 2.5, " ", abs(sum(ys) / length(ys) - mean(tl)) < 0.01)
for p in [1e-10, 0.01, 0.3, 0.5, 0.77, 0.999]
    println(p, ": ", r(quantile(Gamma(2.5, 1.5), p)), " ", r(quantile(Gamma(0.3, 2.0), p)), " ", r(quantile(Beta(2.0, 5.0), p)), " ",
            r(quantile(Beta(0.5, 0.5), p)), " ", r(quantile(TDist(3.0), p)), " ", r(quantile(TDist(1.0), p) / 1000))
end
println(quantile(Gamma(2.0, 1.0), 0.0), " ", quantile(Gamma(2.0, 1.0), 1.0), " ", quantile(TDist(4.0), 0.0), " ", quantile(TDist(4.0), 1.0), " ", quantile(Beta(2.0, 3.0), 1.0))
println(r(cdf(Gamma(2.5, 1.5), quantile(Gamma(2.5, 1.5), 0.3))), " ", r(cdf(Beta(2.0, 5.0), quantile(Beta(2.0, 5.0), 0.77))), " ", median(TDist(3.0)))
for p in [0.0, 0.05, 0.3, 0.5, 0.9, 0.999]
    println(p, ": ", quantile(Poisson(3.2), p), " ", quantile(Binomial(10, 0.3), p), " ", quantile(Bernoulli(0.3), p), " ", quantile(Categorical([0.2, 0.5, 0.3]), p))
end
println(quantile(Binomial(10, 0.3), 1.0), " ", quantile(Poisson(2.0), cdf(Poisson(2.0), 3)))
println(r(polygamma(2, 1.0)), " ", r(polygamma(2, 0.3)), " ", r(polygamma(3, 2.5)), " ", r(polygamma(4, 10.0)), " ", r(polygamma(2, -1.4)), " ", r(polygamma(3, -0.5)))
println(r(zeta(2.0)), " ", r(zeta(3)), " ", zeta(0.0), " ", r(zeta(-1.0)), " ", r(zeta(3.0, 2.5)), " ", r(zeta(4, 0.5)), " ", r(zeta(2.5, -1.5)))
println(sinpi(1.0), " ", sinpi(-1.0), " ", sinpi(0.5), " ", sinpi(1.5), " ", r(sinpi(0.1)), " ", cospi(0.5), " ", cospi(1.0), " ", r(cospi(0.1)), " ", r(erfcx(0.3)), " ", r(erfcx(2.5)), " ", r(erfcx(30.0)), " ", r(erf(0.2, 1.5)))
try
    quantile(Poisson(2.0), 1.0)
catch e
    println(typeof(e))
end
