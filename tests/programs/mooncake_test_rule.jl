# Mooncake's `TestUtils.test_rule` in the language: a passing rule returns `nothing`; a wrong one
# prints every check and raises.
using Mooncake: DefaultCtx, zero_fcodual, TestUtils
using Mooncake
using Random
import Mooncake: CoDual, NoRData, primal, rrule!!
foo(x::Real) = 5x
Mooncake.@is_primitive DefaultCtx Tuple{typeof(foo), Float64}
rrule!!(::CoDual{typeof(foo)}, x::CoDual{Float64}) = zero_fcodual(5 * primal(x)), dy -> (NoRData(), 5dy)
TestUtils.test_rule(Xoshiro(123), foo, 5.0; is_primitive=true)
println("passed")
bar(x) = 2x
Mooncake.TestUtils.test_rule(Xoshiro(1), bar, 5.0; is_primitive=false)
println("ok")
wrong(x) = 3x
Mooncake.@is_primitive DefaultCtx Tuple{typeof(wrong), Float64}
rrule!!(::CoDual{typeof(wrong)}, x::CoDual{Float64}) = zero_fcodual(3 * primal(x)), dy -> (NoRData(), 4dy)
Mooncake.TestUtils.test_rule(Xoshiro(1), wrong, 5.0)
