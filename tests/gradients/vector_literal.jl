# check: f(0.3, 1.4)
f(x, y) = sum([x, 2y, x * y]) * prod([x, y])
