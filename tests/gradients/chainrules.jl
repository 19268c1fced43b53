# check: through_lambertw([0.5, 2.0, 7.5])
# check: projected_norm([0.3, -1.2, 2.0])
# check: keyword_scale(0.7, 1.3)
# check: polar_loss(1.5, -0.4)
# check: weighted_dot([1.0, 2.0, 3.0], [0.5, -0.5, 0.25])
# check: lambertw_sum([0.2, 1.1, 3.0])
# Rules from ChainRules: ChainRulesCore-style `rrule`s (and `frule`s) of a special function, of
# array functions with thunks and projections, of a function with keyword arguments and of a
# function returning a tuple, made Mooncake rules by `@from_rrule` and `@from_chainrules`.
using Mooncake
using ChainRulesCore
using LinearAlgebra

# Lambert's W (the w with w e^w = x, for x > 0) by Newton's method; its derivative
# W / (x (1 + W)) in closed form.
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
function ChainRulesCore.frule((_, Δx), ::typeof(lambertw), x::Float64)
    w = lambertw(x)
    return w, Δx * w / (x * (1 + w))
end
Mooncake.@from_chainrules Mooncake.DefaultCtx Tuple{typeof(lambertw), Float64}
through_lambertw(x) = lambertw(x[1]) * x[2] + lambertw(x[3])^2
lambertw_sum(x) = sum(lambertw.(x) .* x)

# A squared norm whose pullback projects its tangent onto the argument's space.
sqnorm(x::Vector{Float64}) = sum(abs2, x)
function ChainRulesCore.rrule(::typeof(sqnorm), x::Vector{Float64})
    project_x = ProjectTo(x)
    sqnorm_pullback(Ω) = (NoTangent(), @thunk(project_x(2Ω .* x)))
    return sqnorm(x), sqnorm_pullback
end
Mooncake.@from_rrule Mooncake.MinimalCtx Tuple{typeof(sqnorm), Vector{Float64}}
projected_norm(x) = sqnorm(x .* x[1]) + x[2]

# A rule of a function with keyword arguments (which have no derivative).
scale(x::Float64; by::Float64 = 2.0) = by * x
function ChainRulesCore.rrule(::typeof(scale), x::Float64; by::Float64 = 2.0)
    scale_pullback(Ω) = (NoTangent(), by * Ω)
    return scale(x; by = by), scale_pullback
end
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(scale), Float64} true
keyword_scale(x, y) = scale(x; by = 3.0) * y + scale(y)

# A rule of a function returning a tuple: its pullback takes the tuple's tangent apart.
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
polar_loss(x, y) = (p = polar(x, y); p[1]^2 * sin(p[2]))

# A rule of two arrays, with a zero tangent for one of them written as `ZeroTangent()` when
# it does not matter.
wdot(a::Vector{Float64}, b::Vector{Float64}) = dot(a, b)
function ChainRulesCore.rrule(::typeof(wdot), a::Vector{Float64}, b::Vector{Float64})
    wdot_pullback(Ω) = (NoTangent(), Ω .* b, iszero(Ω) ? ZeroTangent() : Ω .* a)
    return wdot(a, b), wdot_pullback
end
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(wdot), Vector{Float64}, Vector{Float64}}
weighted_dot(a, b) = wdot(a, b)^2 + wdot(b, b)

