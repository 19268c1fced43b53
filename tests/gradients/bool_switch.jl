# check: g(0.7)
f(x, b::Bool) = b ? x^2 : -x
g(x) = f(x, true) + f(x, false) * 3
