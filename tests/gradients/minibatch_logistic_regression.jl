# check: epoch_loss(fill(0.05, 4), X, y)
# check: epoch_loss([0.1, -0.3, 0.5, 0.2], X, y)
# A first draft of minibatch logistic regression: `Iterators.partition` batches, `@views` on a
# tuple assignment, a numerically stable cross-entropy with `@.` and an L2 penalty.
using Random, Statistics

sigmoid(z) = 1 / (1 + exp(-z))

function make_data(n, d; seed = 1)
    rng = MersenneTwister(seed)
    X = randn(rng, n, d)
    w_true = collect(range(-1, 1, length = d))
    p = sigmoid.(X * w_true)
    y = Float64.(rand(rng, n) .< p)
    return X, y
end

const X, y = make_data(100, 4)

function batch_loss(w, Xb, yb)
    z = Xb * w
    # numerically stable binary cross-entropy
    mean(@. max(z, 0) - z * yb + log1p(exp(-abs(z))))
end

function epoch_loss(w, X, y; batchsize = 32)
    n = size(X, 1)
    total = 0.0
    for idx in Iterators.partition(1:n, batchsize)
        @views Xb, yb = X[idx, :], y[idx]
        total += batch_loss(w, Xb, yb) * length(idx)
    end
    total / n + 1e-3 * sum(abs2, w)
end
