# check: f(1.3)
f(x) = x^5 - 2x^4 + x^-2 + x^0
