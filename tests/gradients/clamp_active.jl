# check: f(0.4)
# check: f(1.5)
f(x) = clamp(x, 0.0, 1.0) * 3 + clamp(2x, -1.0, 1.0)
