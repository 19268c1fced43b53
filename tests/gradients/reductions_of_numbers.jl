# check: f(0.7)
# A reduction over one number is that number.
f(x) = sum(x) * sum(abs2, x) + maximum(sin, x)
