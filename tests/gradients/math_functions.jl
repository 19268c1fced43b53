# check: f(0.7)
f(x) = sqrt(x) + log(x) + log1p(x) + expm1(x) + tanh(x) + sinh(x) + cosh(x) + asin(x / 2) + acos(x / 3) + atan(x) + exp2(x) + log2(x) + log10(x) + abs(x - 1) + tan(x)
