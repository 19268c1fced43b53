# check: f(1.3)
# check: f(-0.4)
f(x) = abs(x) * 2 + abs(x - 3.0) + sign(x) * x
