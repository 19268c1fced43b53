# check: f(0.4)
f(x) = sin(x)^2 + cos(x)^2 + tan(x) * cos(x)
