# check: loss(init_params())
# A first draft of a neural ODE: a small multilayer perceptron as the vector field, integrated
# by hand-written RK4 steps, fitted to a decaying spiral.
using Random, LinearAlgebra

struct MLP
    W1::Matrix{Float64}
    b1::Vector{Float64}
    W2::Matrix{Float64}
    b2::Vector{Float64}
end

(m::MLP)(u) = m.W2 * tanh.(m.W1 * u .+ m.b1) .+ m.b2

function unpack(p)
    W1 = reshape(p[1:16], 8, 2)
    b1 = p[17:24]
    W2 = reshape(p[25:40], 2, 8)
    b2 = p[41:42]
    MLP(W1, b1, W2, b2)
end

function rk4_step(f, u, dt)
    k1 = f(u)
    k2 = f(u .+ dt / 2 .* k1)
    k3 = f(u .+ dt / 2 .* k2)
    k4 = f(u .+ dt .* k3)
    return u .+ dt / 6 .* (k1 .+ 2k2 .+ 2k3 .+ k4)
end

function trajectory(m, u0, tspan, n)
    dt = (tspan[2] - tspan[1]) / n
    us = [u0]
    u = u0
    for i in 1:n
        u = rk4_step(m, u, dt)
        push!(us, u)
    end
    return us
end

const u0 = [2.0, 0.0]
const ts = range(0.0, 1.5, length = 31)
const target = [[2exp(-0.1t) * cos(2t), 2exp(-0.1t) * sin(2t)] for t in ts]

function loss(p)
    m = unpack(p)
    pred = trajectory(m, u0, (0.0, 1.5), 30)
    sum(sum(abs2, pred[i] - target[i]) for i in eachindex(pred)) / length(pred)
end

function init_params()
    rng = MersenneTwister(42)
    0.3 .* randn(rng, 42)
end
