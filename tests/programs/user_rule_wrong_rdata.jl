# A pullback that forgets the function's rdata: an error naming the rule, never a wrong gradient.
using Mooncake
import Mooncake: rrule!!, CoDual, NoRData, zero_fcodual, primal
twice(x) = 2x
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{typeof(twice), Float64}
rrule!!(::CoDual{typeof(twice)}, x::CoDual{Float64}) = zero_fcodual(2 * primal(x)), dy -> (2dy,)
f(x) = twice(x) * x
println(gradient(f, 1.0))
