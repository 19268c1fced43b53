# check: f(0.3)
f(x) = asin(x) + acos(x) * 2 + atan(x, 1.0 - x)
