# check: f(0.3, 0.9, -0.2)
f(x, y, z) = max(x, y, z) - min(x, y, z) + max(x * y, z)
