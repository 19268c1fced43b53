# Broadcasts and maps into matrices of 1024 elements or more, whose gradients multiply each
# element's partial derivatives (computed by forward-mode lanes in the loop); an expanded
# vector's or row's cotangent is summed along the expanded dimension, a float's over all.
# check: layer(W0(), [0.1 * i for i in 1:32])
# check: scaled(W0(), 0.7)
# check: rows(W0(), [1.0 + 0.5 * sin(1.0 * j) for i in 1:1, j in 1:40])
# check: mapped(W0())
# check: three(W0(), W0(), W0())
# check: cube([cos(0.2 * (i + 2j + 3k)) for i in 1:8, j in 1:8, k in 1:16])
W0() = [sin(0.1 * i + 0.3 * j) for i in 1:32, j in 1:40]
layer(W, b) = sum(abs2, tanh.(W .+ b))
scaled(W, s) = sum(exp.(W .* s)) / s
rows(W, r) = sum(log1p.(W .^ 2 ./ r))
mapped(W) = sum(map(x -> x * sin(x), W)) + sum(map((x, y) -> x * y^2, W, 2 .* W))
# Three differentiable arguments: the loop is differentiated instead.
three(A, B, C) = sum(A .* B .+ C)
cube(T) = sum(sqrt.(T .^ 2 .+ 1.0))
