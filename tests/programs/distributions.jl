# The Distributions package: construction and printing, densities, distribution functions,
# moments, parameter checks, broadcasting over distributions, and sampling (checked
# statistically: the sample moments and distribution of 4,000 draws against the distribution's).
using Distributions, LinearAlgebra, Random
r(x) = round(x, digits = 10)
d = Normal(1.0, 2.0)
println(d, " ", Normal(), " ", Normal(3), " ", params(d), " ", typeof(Normal(1, 2)))
println(r(logpdf(d, 0.5)), " ", r(pdf(d, 0.5)), " ", r(cdf(d, 0.5)), " ", r(quantile(d, 0.3)), " ", r(logcdf(d, -30.0)))
println(mean(d), " ", var(d), " ", std(d), " ", median(d), " ", r(entropy(d)), " ", 2d + 1)
println(r.(logpdf.(Normal(0, 1), [0.0, 1.0])), " ", r.(logpdf.(Normal.([0.0, 1.0], [1.0, 2.0]), 0.5)))
println(Gamma(2.0, 3.0), " ", r(logpdf(Gamma(2.0, 3.0), 1.5)), " ", r(cdf(Gamma(2.0, 3.0), 1.5)), " ", mean(Gamma(2.0, 3.0)), " ", var(Gamma(2.0, 3.0)))
println(Beta(2, 5), " ", r(logpdf(Beta(2.0, 5.0), 0.3)), " ", r(cdf(Beta(2.0, 5.0), 0.3)), " ", logpdf(Beta(2.0, 5.0), 1.5), " ", r(mean(Beta(2.0, 5.0))))
println(Exponential(2.0), " ", r(logpdf(Exponential(2.0), 1.0)), " ", r(cdf(Exponential(2.0), 1.0)), " ", logpdf(Exponential(2.0), -1.0), " ", rate(Exponential(2.0)))
println(Uniform(0, 2), " ", r(logpdf(Uniform(0, 2), 1.0)), " ", logpdf(Uniform(0, 2), 3.0), " ", cdf(Uniform(0, 2), 0.5), " ", var(Uniform(0, 2)))
println(Cauchy(0, 1), " ", r(logpdf(Cauchy(0.0, 1.0), 1.0)), " ", cdf(Cauchy(0.0, 1.0), 1.0), " ", mean(Cauchy()))
println(TDist(3.0), " ", r(logpdf(TDist(3.0), 1.0)), " ", r(cdf(TDist(3.0), 1.0)), " ", r(cdf(TDist(3.0), -1.0)), " ", var(TDist(3.0)), " ", var(TDist(1.5)))
println(LogNormal(0.0, 1.0), " ", r(logpdf(LogNormal(0.0, 1.0), 2.0)), " ", r(cdf(LogNormal(0.0, 1.0), 2.0)), " ", logpdf(LogNormal(), -1.0), " ", r(mean(LogNormal())))
println(Bernoulli(0.3), " ", r(logpdf(Bernoulli(0.3), 1)), " ", r(logpdf(Bernoulli(0.3), false)), " ", pdf(Bernoulli(0.3), 2), " ", r(var(Bernoulli(0.3))))
println(Binomial(10, 0.3), " ", r(logpdf(Binomial(10, 0.3), 3)), " ", r(cdf(Binomial(10, 0.3), 3)), " ", logpdf(Binomial(10, 0.3), 11), " ", mean(Binomial(10, 0.3)))
println(Poisson(3.0), " ", r(logpdf(Poisson(3.0), 2)), " ", r(cdf(Poisson(3.0), 2)), " ", logpdf(Poisson(3.0), 2.5), " ", Poisson(3), " ", typeof(Exponential(1)))
c = Categorical([0.2, 0.3, 0.5])
println(c, " ", r(logpdf(c, 2)), " ", cdf(c, 2), " ", mean(c), " ", pdf(c, 4), " ", ncategories(c))
println(Categorical(5))
di = Dirichlet([1.0, 2.0, 3.0])
println(di, " ", r(logpdf(di, [0.2, 0.3, 0.5])), " ", logpdf(di, [0.2, 0.3, 0.6]), " ", r.(mean(di)))
m = MvNormal([0.0, 1.0], [2.0 0.5; 0.5 1.0])
println(m)
println(r(logpdf(m, [0.3, 0.2])), " ", length(m), " ", mean(m), " ", var(m))
println(MvNormal([0.0, 1.0], Diagonal([2.0, 3.0])))
println(r(logpdf(MvNormal(zeros(2), 2.0 * I), [0.3, 0.2])), " ", r.(logpdf(m, [0.3 0.1; 0.2 0.0])))
for f in (() -> Normal(0.0, -1.0), () -> Gamma(-1.0, 1.0), () -> Uniform(1.0, 0.0), () -> Bernoulli(1.5), () -> Categorical([0.5, 0.6]), () -> Dirichlet([1.0, -1.0]))
    try
        f()
    catch e
        println(e)
    end
end
# The Kolmogorov–Smirnov statistic of a continuous sample against its distribution (critical
# value 1.95/√n at the 0.1% level); each probability of a discrete one within 4.5 standard errors.
function fits(dist::ContinuousUnivariateDistribution, x)
    s = sort(x)
    m = length(s)
    D = maximum(max(i / m - cdf(dist, s[i]), cdf(dist, s[i]) - (i - 1) / m) for i in 1:m)
    string("KS test passed: ", D < 1.95 / sqrt(m))
end
function fits(dist::DiscreteUnivariateDistribution, x)
    m = length(x)
    ok = all(minimum(x):maximum(x)) do k
        p = pdf(dist, k)
        abs(count(==(k), x) / m - p) <= 4.5 * sqrt(p * (1 - p) / m) + 1 / m
    end
    string("frequencies match: ", ok)
end
rng = Xoshiro(42)
n = 4000
for dist in (Normal(1.0, 2.0), Gamma(2.5, 1.5), Gamma(0.5, 2.0), Beta(2.0, 3.0), Exponential(0.5), Uniform(-1.0, 3.0),
             LogNormal(0.1, 0.4), TDist(5.0), Poisson(4.0), Poisson(40.0), Binomial(30, 0.3), Binomial(20, 0.8), Categorical([0.2, 0.3, 0.5]))
    x = rand(rng, dist, n)
    se = sqrt(var(dist) / n)
    println(typeof(dist), " mean within 4 standard errors: ", abs(sum(x) / n - mean(dist)) < 4 * se, ", in support: ", all(v -> insupport(dist, v), x), ", ", fits(dist, x))
end
b = rand(rng, Bernoulli(0.3), 1000)
println(eltype(b), " ", 0.25 < sum(b) / 1000 < 0.35)
X = rand(rng, MvNormal([1.0, -1.0], [2.0 0.5; 0.5 1.0]), n)
μ̂ = vec(sum(X, dims = 2)) ./ n
println(size(X), " ", all(abs.(μ̂ .- [1.0, -1.0]) .< 0.1), " ", abs(sum((X[1, :] .- μ̂[1]) .* (X[2, :] .- μ̂[2])) / n - 0.5) < 0.1)
D = rand(rng, Dirichlet([1.0, 2.0, 3.0]))
println(length(D), " ", sum(D) ≈ 1.0, " ", all(D .> 0))
println(r(loglikelihood(Normal(0, 1), [0.1, 0.2])), " ", r(loglikelihood(m, [0.3 0.1; 0.2 0.0])))
println(Distributions.Normal(0.0, 1.0) isa ContinuousUnivariateDistribution, " ", Poisson(1.0) isa DiscreteUnivariateDistribution, " ", m isa MultivariateDistribution)
