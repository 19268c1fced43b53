# hessian: smooth([0.4, -0.3, 0.9])
# hessian: conv([0.3, -0.2, 0.5])
# Second derivatives through reductions of generators, folded while iterating.
smooth(x) = log(sum(exp(2v) for v in x if v > -1.0)) + prod(1 + 0.1t^2 for t in x)
const signal = [0.1, 0.7, -0.4, 0.9, 0.2]
conv(w) = sum(tanh(sum(w[j] * signal[i + j - 1] for j in 1:length(w)))^2 for i in 1:length(signal) - length(w) + 1)
