# check: noisy_fit([1.0, -2.0, 0.5])
# check: dropout_like([0.3, 0.8, -1.2, 2.0])
using Random
# Random numbers are constants to AD: data drawn inside the function (from a generator seeded
# there, so that every evaluation draws the same numbers) carries no derivative.
function noisy_fit(w)
    rng = Xoshiro(11)
    X = randn(rng, 5, 3)
    y = X * [0.5, 1.0, -1.0] .+ 0.1 .* randn(rng, 5)
    r = y - X * w
    sum(abs2, r) / length(r)
end
function dropout_like(x)
    rng = Xoshiro(5)
    keep = rand(rng, length(x)) .> 0.3
    sum(x .* keep) + sum(x .* x .* rand(rng, 4)) + x[rand(rng, 1:4)]
end
