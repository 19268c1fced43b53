# Mixture models of the Distributions package: univariate and multivariate mixtures, built from
# components and weights or from a family and parameter tuples, printed as the package prints
# them, with densities, distribution functions, moments and sampling (checked statistically).
using Distributions, Random
r(x) = round(x, digits = 10)
m = MixtureModel([Normal(0.0, 1.0), Normal(2.0, 0.5)], [0.3, 0.7])
println(m)
println(typeof(m))
println(r(logpdf(m, 1.0)), " ", r(pdf(m, 1.0)), " ", r(cdf(m, 1.0)), " ", r(mean(m)), " ", r(var(m)), " ", r(std(m)))
println(ncomponents(m), " ", probs(m), " ", component_type(m), " ", component(m, 2), " ", length(components(m)))
println(r.(logpdf.(m, [0.0, 1.5])), " ", r(loglikelihood(m, [0.0, 1.5])), " ", minimum(m), " ", maximum(m))
m2 = MixtureModel(Normal, [(0.0, 1.0), (3.0, 2.0)])
println(m2, " ", r(mean(m2)), " ", typeof(m2))
m3 = MixtureModel([Exponential(1.0), Gamma(2.0, 1.5), LogNormal(0.0, 0.5)], [0.2, 0.5, 0.3])
println(r(logpdf(m3, 1.2)), " ", r(cdf(m3, 1.2)), " ", r(mean(m3)), " ", minimum(m3), " ", insupport(m3, -1.0))
mv = MixtureModel([MvNormal([0.0, 0.0], [1.0 0.0; 0.0 1.0]), MvNormal([1.0, 2.0], [2.0 0.5; 0.5 1.0])], [0.4, 0.6])
println(r(logpdf(mv, [0.5, 0.5])), " ", r.(mean(mv)), " ", r.(cov(mv)), " ", length(mv), " ", r.(var(mv)))
md = MixtureModel([Poisson(1.0), Poisson(6.0)], [0.5, 0.5])
println(md, r(logpdf(md, 3)), " ", r(cdf(md, 3)), " ", mean(md))
rng = MersenneTwister(3)
xs = [rand(rng, m) for _ in 1:20000]
println(abs(sum(xs) / length(xs) - mean(m)) < 0.03, " ", abs(sum(abs2, xs .- mean(m)) / length(xs) - var(m)) < 0.05)
X = rand(rng, mv, 4000)
println(size(X), " ", abs(sum(X[2, :]) / 4000 - 1.2) < 0.1)
try
    MixtureModel([Normal(), Normal()], [0.2, 0.3, 0.5])
catch e
    println(e)
end
# Arrays whose element type is a parametric type with free parameters dispatch on each
# element's own type.
struct Box{T}
    x::T
end
unbox(b::Box) = b.x
unbox(itr) = "generic"
bs = Box[Box(1.5), Box(2)]
println(unbox(bs[1]), " ", unbox(bs[2]), " ", sum(unbox(b) for b in bs), " ", typeof(bs))
