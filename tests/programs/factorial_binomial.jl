# Factorials and binomial coefficients of integers, with Julia's errors past Int64, and the
# generalized binomial coefficient of a real number.
println(factorial(0), " ", factorial(5), " ", factorial(20))
println(binomial(5, 3), " ", binomial(-5, 3), " ", binomial(10, 0), " ", binomial(3, 5), " ", binomial(4, -1), " ", binomial(66, 33), " ", binomial(-1, 4))
println(binomial(2.5, 3), " ", binomial(0.5, 0), " ", binomial(1.5, -1), " ", binomial(7.0, 2))
println([binomial(10, k) for k in 0:10], " ", sum(binomial(12, k) for k in 0:12) == 2^12)
pmf(n, p, k) = binomial(n, k) * p^k * (1 - p)^(n - k)
println(sum(pmf(20, 0.3, k) for k in 0:20) ≈ 1.0)
println(binomial(67, 30))
