# check: minibatch_loss([0.4, -0.3], [1.0 0.5; -0.2 1.1; 0.3 -0.7; 0.9 0.1; -1.2 0.4], [1.0, 0.0, 1.0, 1.0, 0.0])
# check: lazy_chain([0.3, 1.2, -0.8, 2.1, 0.5])
# check: product_grid(0.7, 1.3)
# check: zipped_four([0.2, 0.4, 0.6], [1.5, -0.5, 2.0])
# Lazy iterators in a model: minibatches by `Iterators.partition`, a chain of `take`, `drop`,
# `filter` and `map`, a grid by `product`, `zip` of four.
sigmoid(z) = 1 / (1 + exp(-z))
function minibatch_loss(w, X, y)
    total = 0.0
    for idx in Iterators.partition(1:length(y), 2)
        Xb, yb = X[idx, :], y[idx]
        p = sigmoid.(Xb * w)
        total += -sum(yb .* log.(p) .+ (1 .- yb) .* log.(1 .- p)) / length(idx)
    end
    total
end
function lazy_chain(x)
    s = 0.0
    for (i, v) in enumerate(Iterators.take(Iterators.drop(x, 1), 3))
        s += i * v^2
    end
    s + sum(Iterators.map(abs2, Iterators.filter(>(0), x))) +
        sum(Iterators.flatten(([x[1], x[2]], (x[3],)))) * first(Iterators.reverse(x))
end
function product_grid(a, b)
    s = 0.0
    for (u, v) in Iterators.product([a, b], [1.0, 2.0, 3.0])
        s += sin(u * v)
    end
    s + sum(collect(Iterators.accumulate(*, [a, b, a + b])))
end
function zipped_four(x, y)
    s = 0.0
    for (a, b, k, c) in zip(x, y, 1:3, Iterators.cycle([1.0, -1.0]))
        s += c * k * a * b^2
    end
    s
end
