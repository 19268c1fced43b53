# check: f(0.5f0)
f(x) = sin(x) * x^2 + 2x
