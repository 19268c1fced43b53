# A two-layer perceptron with a tanh hidden layer, fitted by mean squared error.
# mooncake grad examples/models/mlp.jl --call 'loss(params0())'
# check: loss(params0())
struct MLP
    W1::Matrix{Float64}
    b1::Vector{Float64}
    W2::Matrix{Float64}
    b2::Vector{Float64}
end

predict(m::MLP, x) = m.W2 * tanh.(m.W1 * x .+ m.b1) .+ m.b2

xs = [[0.0, 1.0], [1.0, 0.5], [-0.5, -1.0], [2.0, 0.0]]
ys = [[0.5], [1.0], [-0.3], [0.8]]

function loss(m::MLP)
    total = 0.0
    for i in 1:length(xs)
        total += sum(abs2, predict(m, xs[i]) - ys[i])
    end
    total / length(xs)
end

params0() = MLP([0.1 -0.2; 0.3 0.4; -0.5 0.2], [0.0, 0.1, -0.1], [0.2 -0.3 0.5], [0.05])

println("loss(params0) = ", loss(params0()))
