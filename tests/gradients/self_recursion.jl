# check: f(0.9)
powr(x, n) = n == 0 ? 1.0 : x * powr(x, n - 1)
f(x) = powr(x, 6) + powr(2x, 3)
