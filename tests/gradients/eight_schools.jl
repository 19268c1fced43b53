# check: logdensity(θ0()) => -43.22221780714239
# A first draft of the eight-schools model: a non-centred hierarchical log density with a
# half-Cauchy prior written as a truncated Cauchy, as a Turing user writes it by hand.
using Distributions

# Eight schools, non-centred parameterisation.
const y = [28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0]
const σ = [15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0]
const J = length(y)

function logdensity(θ)
    μ = θ[1]
    logτ = θ[2]
    τ = exp(logτ)
    η = θ[3:end]
    lp = logpdf(Normal(0, 5), μ)
    lp += logpdf(truncated(Cauchy(0, 5), 0, Inf), τ) + logτ   # Jacobian of log transform
    lp += sum(logpdf.(Normal(), η))
    schools = μ .+ τ .* η
    for j in 1:J
        lp += logpdf(Normal(schools[j], σ[j]), y[j])
    end
    return lp
end

θ0() = [1.0, 0.5, 0.1, -0.2, 0.3, 0.0, 0.5, -0.4, 0.2, 0.9]
