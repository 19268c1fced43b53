# check: f(1.2, -0.7)
f(x, y) = hypot(x, y) * atan(y, x)
