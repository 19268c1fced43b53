# hessian: model([0.3, -0.1, 0.8, 0.25, -0.6, 0.45, 0.05, -0.2, 0.12])
# hessian: spread([1.0, 4.0, 9.0, 16.0, 25.0, 36.0, 49.0, 64.0])
using LinearAlgebra, Statistics
# Second derivatives of a first draft with arrays as values: a softmax over `dims`, a
# cross-entropy, `std`/`var` over a dimension of a three-dimensional array, `median`,
# `cumsum`, a comprehension over two iterators, a filtered generator and `findmax`.
function softmax(Z; dims = 1)
    E = exp.(Z .- maximum(Z; dims = dims))
    E ./ sum(E; dims = dims)
end
function model(θ)
    W1 = reshape(θ[1:6], 3, 2)
    b1 = θ[7:9]
    X = [0.5 -1.0 2.0 0.1; 1.5 0.2 -0.3 0.7]
    H = max.(W1 * X .+ b1, 0.0)
    P = softmax(H; dims = 1)
    Y = [1 0 0 1; 0 1 0 0; 0 0 1 0]
    ce = -sum(Y .* log.(P)) / size(X, 2)
    T = reshape(θ[1:8], 2, 2, 2)
    ce + sum(std(T; dims = 3)) + var(vec(T)) + median(θ) + sum(cumsum(θ) .* 0.01) +
        sum([θ[i] * θ[j] for i in 1:3, j in 1:2]) + sum(x^2 for x in θ if x > 0) +
        maximum(abs, θ) + first(findmax(θ)) + sum(sort(θ)[1:2]) + extrema(θ)[2]
end
spread(θ) = sum(var(reshape(θ, 2, 2, 2); dims = 3)) + sum(std(reshape(θ, 2, 4); dims = 2, corrected = false))
