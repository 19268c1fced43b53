# What a rule written in the language costs: the same loss through a user `rrule!!`, through
# the function's code, and through the built-in rule (`mooncake bench` on each call).
using Mooncake
import Mooncake: rrule!!, CoDual, NoRData, zero_fcodual, primal, tangent

# An element-wise function: a rule, the same code without one, and the built-in `abs2`.
sq_rule(x) = x * x
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{typeof(sq_rule), Float64}
rrule!!(::CoDual{typeof(sq_rule)}, x::CoDual{Float64}) =
    zero_fcodual(primal(x) * primal(x)), dy -> (NoRData(), 2 * primal(x) * dy)
sq_code(x) = x * x
by_rule(x) = sum(sq_rule.(x))
by_code(x) = sum(sq_code.(x))
builtin(x) = sum(abs2.(x))

# A matrix kernel: `A * x` by a rule whose pullback increments both fdata, and by the built-in
# matrix-product rule.
matvec(A::Matrix{Float64}, x::Vector{Float64}) = A * x
Mooncake.@is_primitive Mooncake.DefaultCtx Mooncake.ReverseMode Tuple{typeof(matvec), Matrix{Float64}, Vector{Float64}}
function rrule!!(::CoDual{typeof(matvec)}, A::CoDual{Matrix{Float64}}, x::CoDual{Vector{Float64}})
    Av, dA, xv, dx = primal(A), tangent(A), primal(x), tangent(x)
    y = Av * xv
    dy = zero(y)
    function matvec_pullback(::NoRData)
        dA .+= dy * xv'
        dx .+= Av' * dy
        return NoRData(), NoRData(), NoRData()
    end
    return CoDual(y, dy), matvec_pullback
end
kernel_rule(A, x) = sum(matvec(A, x))
kernel_builtin(A, x) = sum(A * x)

x0() = [sin(0.001 * i) for i in 1:1_000_000]
A0() = [cos(0.01 * (i + 2j)) for i in 1:200, j in 1:200]
v0() = [sin(0.1 * i) for i in 1:200]
