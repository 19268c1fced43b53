# Logistic regression: the mean negative log-likelihood of labels y under σ(X w .+ b).
# mooncake grad examples/models/logistic_regression.jl --call 'nll(θ0())'
# check: nll(θ0())
σ(z) = 1 / (1 + exp(-z))

X = [0.5 1.0; -1.0 0.3; 2.0 -0.5; -0.3 -1.2; 1.1 0.8; -2.0 0.4]
y = [1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
θ0() = [0.1, -0.2, 0.05]

function nll(θ)
    w = θ[1:2]
    b = θ[3]
    p = σ.(X * w .+ b)
    -sum(y .* log.(p) .+ (1 .- y) .* log.(1 .- p)) / length(y)
end

println("nll(θ0) = ", nll(θ0()))
