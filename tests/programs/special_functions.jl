# SpecialFunctions and LogExpFunctions, as the packages compute them.
using SpecialFunctions, LogExpFunctions
r(x) = round(x, digits = 10)
println(erf(0.0), " ", erf(Inf), " ", erfc(-Inf), " ", r(erf(0.5)), " ", r(erfc(1.5)), " ", r(erf(-2.7)))
println(r(erfinv(0.5)), " ", r(erfinv(-0.99)), " ", erfinv(1.0), " ", r(erfcinv(1e-20)), " ", r(erfcinv(1.5)))
println(gamma(5), " ", gamma(5.0), " ", gamma(0.5)^2 ≈ π, " ", r(gamma(-1.5)), " ", gamma(1), " ", gamma(0))
println(loggamma(1.0), " ", r(loggamma(100.0)), " ", r(logabsgamma(-1.5)[1]), " ", logabsgamma(-1.5)[2], " ", logabsgamma(-0.5)[2], " ", lgamma(3.0) ≈ log(2))
println(r(digamma(1.0)), " ", r(digamma(-0.5)), " ", r(trigamma(1.0)), " ", trigamma(1.0) ≈ π^2 / 6, " ", polygamma(0, 2.0) == digamma(2.0))
println(r(beta(2.0, 3.0)), " ", beta(2, 3) ≈ 1 / 12, " ", r(logbeta(20.0, 30.5)), " ", logabsbeta(-1.5, 0.25)[2])
println(r(besselj0(1.0)), " ", r(besselj1(1.0)), " ", besselj0(0.0), " ", besselj1(0.0))
println(logfactorial(10) ≈ log(factorial(10)))
println(logistic(0.0), " ", logistic(800.0), " ", logistic(-800.0), " ", r(logit(0.25)), " ", logit(logistic(1.5)) ≈ 1.5)
println(log1pexp(1000.0), " ", log1pexp(-1000.0), " ", r(log1pexp(0.5)), " ", r(log1mexp(-2.0)), " ", r(logexpm1(3.0)))
println(r(logsumexp([1.0, 2.0, 3.0])), " ", logsumexp([1000.0, 1000.0]) ≈ 1000 + log(2), " ", logsumexp(Float64[]), " ", r(logsumexp(x for x in 1:3)))
println(r.(logsumexp([1.0 2.0; 3.0 4.0]; dims = 1)), " ", r.(logsumexp([1.0 2.0; 3.0 4.0]; dims = 2)))
println(r.(softmax([1.0, 2.0, 3.0])), " ", r.(softmax([1.0 2.0; 3.0 4.0]; dims = 1)))
println(xlogx(0.0), " ", xlogy(0.0, 0.0), " ", r(xlogy(2.0, 3.0)), " ", r(logaddexp(1.0, 2.0)), " ", r(logsubexp(2.0, 1.0)))
println(softplus(2.0) == log1pexp(2.0), " ", r(invsoftplus(softplus(0.3))), " ", r(loglogistic(-1.0)), " ", r(cloglog(0.5)))
println(SpecialFunctions.erf(1.0) == erf(1.0), " ", LogExpFunctions.logistic(1.0) == logistic(1.0))
try
    erfinv(1.5)
catch e
    println(e)
end
try
    loggamma(-0.5)
catch e
    println(e)
end
try
    gamma(-2.0)
catch e
    println(e)
end
