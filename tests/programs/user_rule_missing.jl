# A primitive without a rule for its arguments: Julia's MethodError for `rrule!!`.
using Mooncake
import Mooncake: rrule!!, CoDual
half(x) = x / 2
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{typeof(half), Float64}
f(x) = half(x) * x
println(f(3.0))
println(gradient(f, 3.0))
