# check: ev(0.8, 7)
ev(x, n) = n == 0 ? x^2 : od(x * 1.1, n - 1)
od(x, n) = n == 0 ? sin(x) : ev(x - 0.1, n - 1)
