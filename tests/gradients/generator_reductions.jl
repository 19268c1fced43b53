# Reductions of generators, folded while iterating: sums, products, maxima, with and without
# a condition, over ranges, arrays, enumerate and zip.
# check: conv_loss([0.3, -0.2, 0.5], [0.1, 0.7, -0.4, 0.9, 0.2, -0.6])
# check: soft_max([0.5, -2.0, 1.5, 0.25])
# check: mixed([0.4, 1.2, -0.3, 0.8])
# check: paired([0.4, 1.2, -0.3], [1.0, -0.5, 2.0])

conv1d(w, x) = [sum(w[j] * x[i + j - 1] for j in 1:length(w)) for i in 1:length(x) - length(w) + 1]
conv_loss(w, x) = sum(abs2, tanh.(conv1d(w, x)))

soft_max(x) = log(sum(exp(v) for v in x if v > -1.0))

mixed(x) = sum(abs2(x[i] - x[i + 1]) for i in 1:length(x) - 1) + prod(1 + 0.1t for t in x) +
           maximum(sin(t) for t in x) + sum(i * t for (i, t) in enumerate(x))

paired(a, b) = sum(p * q for (p, q) in zip(a, b)) * minimum(p^2 + q for (p, q) in zip(a, b))

# Index-value pairs of a vector and of a matrix.
# check: weighted([0.4, 1.2, -0.3])
# check: weighted_matrix([0.4 1.2; -0.3 0.8])
weighted(v) = sum(i * x^2 for (i, x) in pairs(v))
weighted_matrix(A) = sum(I[1] * a + I[2] * a^2 for (I, a) in pairs(A))
