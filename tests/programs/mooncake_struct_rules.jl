# Rules of functions of structs, written as Mooncake users write them: a pullback returning a
# struct's rdata as `RData` of a named tuple, an `frule!!` reading a struct's tangent through
# `.fields`, and a struct whose array field's cotangent is incremented through its fdata.
using Mooncake
import Mooncake: rrule!!, frule!!, CoDual, Dual, NoRData, NoFData, primal, tangent, @is_primitive,
    MinimalCtx, RData, FData, zero_fcodual, zero_rdata
using Random: Xoshiro

# A spring's energy, with a hand-written rule for its parameters.
struct Spring
    k::Float64
    x0::Float64
end
energy(s::Spring, x::Float64) = s.k * (x - s.x0)^2 / 2
@is_primitive MinimalCtx Tuple{typeof(energy), Spring, Float64}
function rrule!!(::CoDual{typeof(energy)}, s::CoDual{Spring}, x::CoDual{Float64})
    sp, xp = primal(s), primal(x)
    d = xp - sp.x0
    energy_pb(dy) = (NoRData(), RData((k = dy * d^2 / 2, x0 = -dy * sp.k * d)), dy * sp.k * d)
    return zero_fcodual(energy(sp, xp)), energy_pb
end
function frule!!(::Dual{typeof(energy)}, s::Dual{Spring}, x::Dual{Float64})
    sp, xp = primal(s), primal(x)
    ds, dx = tangent(s), tangent(x)
    d = xp - sp.x0
    dy = ds.fields.k * d^2 / 2 + sp.k * d * (dx - ds.fields.x0)
    return Dual(energy(sp, xp), dy)
end
total(ks, x) = sum(energy(Spring(k, 1.0), x) for k in ks)
println(rrule!!(zero_fcodual(energy), zero_fcodual(Spring(2.0, 1.0)), zero_fcodual(3.0))[2](1.0))
cache = Mooncake.prepare_gradient_cache(energy, Spring(2.0, 1.0), 3.0)
println(Mooncake.value_and_gradient!!(cache, energy, Spring(2.0, 1.0), 3.0))
println(Mooncake.value_and_gradient!!(cache, total, [1.0, 2.0], 3.0))
Mooncake.TestUtils.test_rule(Xoshiro(1), energy, Spring(2.0, 1.0), 3.0; is_primitive = true)

# A layer with an array field: its fdata carries the weights' cotangent.
struct Affine
    w::Vector{Float64}
    b::Float64
end
apply(a::Affine, x::Vector{Float64}) = sum(a.w .* x) + a.b
@is_primitive MinimalCtx Tuple{typeof(apply), Affine, Vector{Float64}}
function rrule!!(::CoDual{typeof(apply)}, a::CoDual{Affine}, x::CoDual{Vector{Float64}})
    ap, xp = primal(a), primal(x)
    dw = tangent(a).data.w
    dx = tangent(x)
    function apply_pb(dy)
        dw .+= dy .* xp
        dx .+= dy .* ap.w
        return NoRData(), RData((w = NoRData(), b = dy)), NoRData()
    end
    return zero_fcodual(apply(ap, xp)), apply_pb
end
println(zero_fcodual(Affine([1.0], 2.0)))
println(zero_rdata(Affine([1.0], 2.0)))
c = Mooncake.prepare_gradient_cache(apply, Affine([1.0, 2.0], 0.5), [3.0, 4.0])
println(Mooncake.value_and_gradient!!(c, apply, Affine([1.0, 2.0], 0.5), [3.0, 4.0]))
Mooncake.TestUtils.test_rule(Xoshiro(1), apply, Affine([1.0, 2.0], 0.5), [3.0, 4.0]; is_primitive = true, mode = Mooncake.ReverseMode)
