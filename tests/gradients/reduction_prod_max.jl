# check: f([0.5, -0.7, 1.1, 2.0])
f(x) = prod(x) + maximum(x) * minimum(x)
