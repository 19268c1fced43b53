# Threaded loops: an element-wise loop (program A's body, `cos(exp(x[n]))`) and a batch loss
# (a two-layer perceptron applied to each of 256 samples, one per iteration, every iteration
# reading the same weights). Run with 1 and with 2 threads and compare:
#   mooncake bench --threads 1 examples/bench_threads.jl --call 'elementwise(xs(10^6))'
#   mooncake bench --threads 2 examples/bench_threads.jl --call 'elementwise(xs(10^6))'
#   mooncake bench --threads 2 examples/bench_threads.jl --call 'batch_loss(params())'
# and forward mode on a loop with three parameters:
#   mooncake bench --threads 2 examples/bench_threads.jl --call 'wave([0.5, 0.1, 2.0])'

xs(n) = [sin(Float64(k)) / 2 for k in 1:n]

function elementwise(x)
    y = similar(x)
    Threads.@threads for n in eachindex(x)
        y[n] = cos(exp(x[n]))
    end
    sum(y)
end

struct MLP
    W1::Matrix{Float64}
    b1::Vector{Float64}
    W2::Matrix{Float64}
    b2::Vector{Float64}
end

const DATA = [sin(0.01 * k) for k in 1:(16 * 256)]
const TARGETS = [cos(0.02 * k) for k in 1:256]

params() = MLP([sin(0.1 * (i + 3j)) / 4 for i in 1:32, j in 1:16], zeros(32),
               [cos(0.1 * (i + j)) / 6 for i in 1:1, j in 1:32], zeros(1))

function sample_loss(m::MLP, k)
    x = DATA[(16k - 15):(16k)]
    h = tanh.(m.W1 * x .+ m.b1)
    y = m.W2 * h .+ m.b2
    (y[1] - TARGETS[k])^2
end

function batch_loss(m::MLP)
    losses = zeros(256)
    Threads.@threads for k in 1:256
        losses[k] = sample_loss(m, k)
    end
    sum(losses) / 256
end

function wave(w)
    y = zeros(200_000)
    Threads.@threads for n in eachindex(y)
        y[n] = w[3] * cos(exp(w[1] * n / 200_000) + w[2])
    end
    sum(y)
end
