# check: smoothed([0.4, 1.3, -0.2, 0.9])
# check: correlated([1.0, 2.5, 0.3, 4.0], [0.5, 2.0, 1.0, 3.0])
using Statistics
# A helper defined inside the function closes over its locals; covariance and correlation of
# the inputs.
function smoothed(x)
    w = 0.25
    kernel(a, b) = exp(-w * (a - b)^2)
    s = 0.0
    for i in eachindex(x), j in eachindex(x)
        s += kernel(x[i], x[j]) * x[i]
    end
    s + cov(x) + var(x)
end
correlated(x, y) = cor(x, y) + cov(x, y) + sum(cov([x y]))
