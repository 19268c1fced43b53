# hessian: f([0.6, 1.3])
# Second derivatives through rules written in the language: forward mode differentiates the
# rule's own code (its `rrule!!` and pullback), so the Hessian follows the rule's derivative.
using Mooncake
import Mooncake: rrule!!, CoDual, NoRData, zero_fcodual, primal, tangent

sumsq(x::Vector{Float64}) = sum(abs2, x)
Mooncake.@is_primitive Mooncake.MinimalCtx Tuple{typeof(sumsq), Vector{Float64}}
function rrule!!(::CoDual{typeof(sumsq)}, x::CoDual{Vector{Float64}})
    xv, dx = primal(x), tangent(x)
    function sumsq_pullback(dy)
        dx .+= 2 .* dy .* xv
        return NoRData(), NoRData()
    end
    return zero_fcodual(sumsq(xv)), sumsq_pullback
end
cube(x) = x^3
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{typeof(cube), Float64}
rrule!!(::CoDual{typeof(cube)}, x::CoDual{Float64}) =
    zero_fcodual(cube(primal(x))), dy -> (NoRData(), 3 * primal(x)^2 * dy)
f(x) = sumsq(x) * cube(x[2]) + cube(x[1] * x[2])
