# check: wrapped_phase(7.5, 0.3)
# check: robust_spread([3.0, 1.0, 2.5, 5.0, 4.0])
# check: unique_sum([1.5, 0.5, -1.25, 2.0])
# check: running_products([0.5, 1.5, -2.0, 0.75])
# Angles wrapped with `mod`, a spread measured by quantiles, a sum over distinct values
# (piecewise-linear functions whose derivatives are those of the piece the input lies in), and
# running products and folds.
wrapped_phase(θ, ω) = sin(mod(θ * ω, 2π)) + mod1(θ, 2.0) + mod(θ, 3)

robust_spread(x) = sum(x) / (quantile(x, 0.75) - quantile(x, 0.25)) + partialsort(x, 2)

unique_sum(x) = sum(abs2, unique(x))

running_products(x) = sum(accumulate(*, x)) + foldr((a, b) -> a - 2b, x) + foldl(-, x; init = 1.0)
