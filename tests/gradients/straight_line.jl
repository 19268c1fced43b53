# check: f(0.3, -0.7)
# check: f(1.2, 0.5)
f(x, y) = sin(x) * cos(y) + exp(x * y) / (1 + x^2)
