# One head of scaled dot-product self-attention over a short sequence (tokens are columns),
# followed by a squared-error readout; the parameter is the query matrix.
# mooncake grad examples/models/attention.jl --call 'loss(Wq0())'
# check: loss(Wq0())
X = [1.0 0.5 -0.2 0.3; -0.4 0.8 0.1 0.9; 0.2 -0.6 0.7 0.0]
Wk = [0.2 -0.1 0.4; 0.3 0.5 -0.2]
Wv = [0.1 0.2 0.3; -0.3 0.1 0.2]
target = [0.5 0.1 -0.2 0.3; 0.0 0.2 0.4 -0.1]
Wq0() = [0.1 0.3 -0.2; 0.4 -0.1 0.2]

function softmax_columns(S)
    E = exp.(S .- maximum(S, dims = 1))
    E ./ sum(E, dims = 1)
end

function attend(Wq)
    Q = Wq * X
    K = Wk * X
    V = Wv * X
    A = softmax_columns(K' * Q / sqrt(size(Q, 1)))
    V * A
end

loss(Wq) = sum(abs2, attend(Wq) - target)

println("loss(Wq0) = ", loss(Wq0()))
