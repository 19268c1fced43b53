# Sums of a function over float arrays of 1024 elements or more (`sum(f, A)`, `mapreduce(f, +,
# A)`, a generator's sum), whose gradients multiply each element's partial derivative
# (computed by forward-mode lanes) by the sum's cotangent; a closure capturing a float, a
# short array and a condition in the generator take the fold (single precision: the rule cases).
# check: branchy(M0())
# check: smooth_vector([0.01 * i - 3.0 for i in 1:1500])
# check: generator(M0())
# check: mapped_three(T0())
# check: shifted(M0(), 0.25)
# check: short([0.5, -1.0, 2.0])
# check: filtered(M0())
M0() = [sin(0.1 * i + 0.3 * j) + 0.01 for i in 1:32, j in 1:40]
T0() = [cos(0.2 * (i + 2j + 3k)) for i in 1:8, j in 1:8, k in 1:16]
huber(x) = abs(x) < 0.5 ? x^2 : abs(x) - 0.25
branchy(M) = sum(huber, M) + sum(abs2, M)
smooth_vector(v) = sum(x -> log1p(exp(x)), v) * v[2]
generator(M) = sum(huber(x) * x for x in M)
mapped_three(T) = mapreduce(t -> sqrt(t^2 + 1.0), +, T)
shifted(M, c) = sum(x -> (x - c)^2, M)
short(v) = sum(huber, v)
filtered(M) = sum(x^3 for x in M if x > 0.0)
