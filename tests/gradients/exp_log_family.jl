# check: f(1.7)
f(x) = exp2(x) + log2(x) + log10(x) + expm1(x) + log1p(x)
