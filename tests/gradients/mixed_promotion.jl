# check: f(0.7, 3)
f(x, n) = x * n + n / x + (x > 0.5 ? n : 1)
