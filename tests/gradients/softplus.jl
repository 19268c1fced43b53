# check: f(0.3, 0.8)
# check: f(25.0, -1.0)
softplus(x) = x > 20.0 ? x : log1p(exp(x))
f(x, y) = softplus(x) * softplus(-y)
