# Second derivatives through lazy iterators: minibatches by `partition`, `take`/`drop`,
# `filter`/`map`, `product` and `zip`.
# hessian: minibatches([0.4, -0.3])
# hessian: chained([0.3, 1.2, -0.8, 2.1, 0.5])
# hessian: gridded([0.7, 1.3])
const X = [1.0 0.5; -0.2 1.1; 0.3 -0.7; 0.9 0.1; -1.2 0.4]
const y = [1.0, 0.0, 1.0, 1.0, 0.0]
sigmoid(z) = 1 / (1 + exp(-z))
function minibatches(w)
    total = 0.0
    for idx in Iterators.partition(1:length(y), 2)
        p = sigmoid.(X[idx, :] * w)
        total -= sum(y[idx] .* log.(p) .+ (1 .- y[idx]) .* log.(1 .- p))
    end
    total
end
function chained(x)
    s = 0.0
    for (i, v) in enumerate(Iterators.take(Iterators.drop(x, 1), 3))
        s += i * v^3
    end
    s + sum(Iterators.map(abs2, Iterators.filter(>(0), x))) * x[1]
end
function gridded(x)
    s = 0.0
    for (u, v) in Iterators.product(x, [1.0, 2.0])
        s += sin(u * v)
    end
    for (a, b, k, c) in zip(x, reverse(x), 1:2, Iterators.cycle([1.0, -1.0]))
        s += c * k * a * b^2
    end
    s
end
