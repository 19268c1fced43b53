# check: series(0.7)
# check: pmf_loss([0.3, 0.6])
# The generalized binomial coefficient of a real `x` (a polynomial in `x`) and integer
# coefficients as constants in a likelihood.
series(x) = sum(binomial(x, k) * 0.5^k for k in 0:6)

function pmf_loss(p)
    n = 8
    s = 0.0
    for k in 0:n
        q = binomial(n, k) * p[1]^k * (1 - p[1])^(n - k)
        s += q * log(p[2] + k)
    end
    s / factorial(4)
end
