# ChainRules rules of functions of structs: a pullback returning `Tangent{P}(; field = ...)` (fields
# left out have a zero tangent; an array field's tangent is added into the struct's fdata).
using Mooncake
using ChainRulesCore
using Random: Xoshiro

struct Spring
    k::Float64
    x0::Float64
    name::String
end
energy(s::Spring, x::Float64) = s.k * (x - s.x0)^2 / 2
function ChainRulesCore.rrule(::typeof(energy), s::Spring, x::Float64)
    d = x - s.x0
    energy_pullback(Δ) = (NoTangent(), Tangent{Spring}(k = Δ * d^2 / 2, x0 = -Δ * s.k * d), Δ * s.k * d)
    return energy(s, x), energy_pullback
end
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(energy), Spring, Float64}

struct Affine
    w::Vector{Float64}
    b::Float64
end
apply(a::Affine, x::Vector{Float64}) = sum(a.w .* x) + a.b
function ChainRulesCore.rrule(::typeof(apply), a::Affine, x::Vector{Float64})
    apply_pullback(Δ) = (NoTangent(), Tangent{Affine}(w = Δ .* x, b = Δ), Δ .* a.w)
    return apply(a, x), apply_pullback
end
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(apply), Affine, Vector{Float64}}

println(Tangent{Spring}(k = 1.0))
c = Mooncake.prepare_gradient_cache(energy, Spring(2.0, 1.0, "a"), 3.0)
println(Mooncake.value_and_gradient!!(c, energy, Spring(2.0, 1.0, "a"), 3.0))
c2 = Mooncake.prepare_gradient_cache(apply, Affine([1.0, 2.0], 0.5), [3.0, 4.0])
println(Mooncake.value_and_gradient!!(c2, apply, Affine([1.0, 2.0], 0.5), [3.0, 4.0]))
Mooncake.TestUtils.test_rule(Xoshiro(1), energy, Spring(2.0, 1.0, "a"), 3.0; is_primitive = true, mode = Mooncake.ReverseMode)
Mooncake.TestUtils.test_rule(Xoshiro(1), apply, Affine([1.0, 2.0], 0.5), [3.0, 4.0]; is_primitive = true, mode = Mooncake.ReverseMode)
