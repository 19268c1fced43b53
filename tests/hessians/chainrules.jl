# hessian: f([0.6, 1.3, 0.8])
# Second derivatives through rules from ChainRules: forward mode differentiates the adapters
# and the program's `rrule` and pullback (thunks, keyword arguments, a tuple output), so the
# Hessian follows the rules' derivatives.
using Mooncake
using ChainRulesCore

function lambertw(x::Float64)
    w = log1p(x)
    for _ in 1:50
        ew = exp(w)
        w -= (w * ew - x) / (ew * (w + 1))
    end
    w
end
function ChainRulesCore.rrule(::typeof(lambertw), x::Float64)
    w = lambertw(x)
    lambertw_pullback(Δ) = (NoTangent(), @thunk(Δ * w / (x * (1 + w))))
    return w, lambertw_pullback
end
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(lambertw), Float64}

scale(x::Float64; by::Float64 = 2.0) = by * x
function ChainRulesCore.rrule(::typeof(scale), x::Float64; by::Float64 = 2.0)
    return scale(x; by = by), Ω -> (NoTangent(), by * Ω)
end
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(scale), Float64} true

polar(x::Float64, y::Float64) = (hypot(x, y), atan(y, x))
function ChainRulesCore.rrule(::typeof(polar), x::Float64, y::Float64)
    r, θ = polar(x, y)
    function polar_pullback(Δ)
        Δr, Δθ = Δ
        return NoTangent(), Δr * x / r - Δθ * y / r^2, Δr * y / r + Δθ * x / r^2
    end
    return (r, θ), polar_pullback
end
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(polar), Float64, Float64}

f(x) = lambertw(x[1] * x[3]) * x[2] + scale(x[2]; by = 1.5)^2 + polar(x[1], x[3])[1] * polar(x[2], x[1])[2]
