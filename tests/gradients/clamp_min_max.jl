# check: f(0.3, 0.7)
# check: f(0.9, 0.2)
f(x, y) = max(x, y) * min(x, 2y) + clamp(x, -0.5, 0.5)
