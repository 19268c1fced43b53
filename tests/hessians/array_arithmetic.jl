# Second derivatives of whole-array arithmetic, adjoints, solves and reductions over dimensions.
# hessian: quadratic([0.5, -0.2, 1.0])
# hessian: solved([1.0, 2.0])
# hessian: softmax_first([0.3, -1.0, 2.0])
# hessian: five_dim([0.3, -0.4, 0.8, 0.1])
using LinearAlgebra
function quadratic(x)
    A = [2.0 1.0 0.0; 1.0 3.0 0.5; 0.0 0.5 1.0]
    x' * A * x + sum((x - 2x) .^ 3) / 3
end
function solved(b)
    K = [4.0 1.0; 2.0 3.0] + I
    u = K \ (b .* b)
    u ⋅ u
end
function softmax_first(z)
    Z = [z z]
    e = exp.(Z .- maximum(Z, dims = 1))
    (e ./ sum(e, dims = 1))[1, 1]
end
# An array of five dimensions built from the inputs, broadcast and reduced over dimensions.
function five_dim(x)
    V = reshape(repeat(x, 8), 2, 2, 2, 2, 2) .* reshape([1.0, 0.5], 1, 1, 1, 1, 2)
    S = sum(sin.(V) .* V; dims = (2, 4))
    sum(abs2, S) + V[2, 1, 2, 1, 2]^3
end
