# A linear softmax classifier: the mean cross-entropy of the class scores W * X.
# mooncake grad examples/models/softmax_classifier.jl --call 'cross_entropy(W0())'
# check: cross_entropy(W0())
X = [1.0 0.5 -1.0 0.2; 0.3 -0.8 0.6 1.5]
labels = [1, 3, 2, 3]
W0() = [0.1 0.2; -0.3 0.1; 0.05 -0.2]

function softmax(Z)
    E = exp.(Z .- maximum(Z, dims = 1))
    E ./ sum(E, dims = 1)
end

function cross_entropy(W)
    P = softmax(W * X)
    -sum(log(P[labels[j], j]) for j in 1:length(labels)) / length(labels)
end

println("cross_entropy(W0) = ", cross_entropy(W0()))
