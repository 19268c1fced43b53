# check: moe_loss(init_moe())
# A first draft of a mixture of experts: softmax gating by a hand-written logsumexp, linear
# experts, parameters unpacked into a named tuple, data made in a `let` block.
using Random, LinearAlgebra

const K = 3   # experts
const D = 2

function logsumexp(x)
    m = maximum(x)
    m + log(sum(exp.(x .- m)))
end

function unpack(p)
    Wg = reshape(p[1:K*D], K, D)
    bg = p[K*D+1:K*D+K]
    We = reshape(p[K*D+K+1:K*D+K+K*D], K, D)
    be = p[end-K+1:end]
    (; Wg, bg, We, be)
end

function moe_predict(θ, x)
    logits = θ.Wg * x + θ.bg
    gates = exp.(logits .- logsumexp(logits))
    experts = θ.We * x .+ θ.be
    dot(gates, experts)
end

const data = let rng = MersenneTwister(3)
    xs = [randn(rng, D) for _ in 1:20]
    [(x, x[1] > 0 ? 2x[2] : -x[1] + 0.5) for x in xs]
end

function moe_loss(p)
    θ = unpack(p)
    sum((moe_predict(θ, x) - y)^2 for (x, y) in data) / length(data)
end

init_moe() = 0.1 .* collect(1.0:2K*D+2K) .* (-1) .^ (1:2K*D+2K)
