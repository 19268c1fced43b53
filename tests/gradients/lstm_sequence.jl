# check: sequence_loss(init(3, 4))
# A first draft of an LSTM: a callable cell struct destructuring its state tuple in the
# parameter list, run over a sequence with `zip`, parameters unpacked from one vector.
using Random

struct LSTMCell
    Wi::Matrix{Float64}
    Wh::Matrix{Float64}
    b::Vector{Float64}
end

σ(x) = 1 / (1 + exp(-x))

function (cell::LSTMCell)((h, c), x)
    H = length(h)
    g = cell.Wi * x .+ cell.Wh * h .+ cell.b
    i = σ.(g[1:H])
    f = σ.(g[H+1:2H])
    o = σ.(g[2H+1:3H])
    ĉ = tanh.(g[3H+1:4H])
    c′ = f .* c .+ i .* ĉ
    h′ = o .* tanh.(c′)
    return (h′, c′), h′
end

function init(nin, nh; seed = 0)
    rng = MersenneTwister(seed)
    n = 4nh * nin + 4nh * nh + 4nh
    0.2 .* randn(rng, n)
end

function build(p, nin, nh)
    a = 4nh * nin
    b = a + 4nh * nh
    LSTMCell(reshape(p[1:a], 4nh, nin), reshape(p[a+1:b], 4nh, nh), p[b+1:end])
end

const xs = [[sin(0.3t), cos(0.2t), 0.1t] for t in 1:8]
const ys = [0.5sin(0.3t + 0.3) for t in 1:8]

function sequence_loss(p)
    cell = build(p, 3, 4)
    state = (zeros(4), zeros(4))
    loss = 0.0
    for (x, y) in zip(xs, ys)
        state, h = cell(state, x)
        loss += (sum(h) - y)^2
    end
    loss / length(xs)
end
