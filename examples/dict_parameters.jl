# A model whose parameters live in a dictionary: its gradient is a dictionary of the same keys.
#   mooncake grad examples/dict_parameters.jl --call 'loss(params0())'
const xs = [0.5, 1.0, 1.5, 2.0, 2.5]
const ys = [1.1, 1.9, 3.2, 3.9, 5.1]
params0() = Dict(:slope => 0.5, :intercept => 0.0, :log_noise => 0.0)
function loss(p::Dict{Symbol,Float64})
    σ = exp(p[:log_noise])
    r = (p[:slope] .* xs .+ p[:intercept] .- ys) ./ σ
    sum(abs2, r) / 2 + length(xs) * p[:log_noise]
end
