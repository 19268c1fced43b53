# check: f(0.6)
f(x) = sinh(x) * cosh(x) - tanh(x)
