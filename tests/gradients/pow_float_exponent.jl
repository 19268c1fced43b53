# check: f(1.5, 0.7)
f(x, y) = x^y + y^x
