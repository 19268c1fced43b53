# ChainRulesCore's `@scalar_rule`: an `rrule` and an `frule` from partial derivatives (one using the
# output `Ω`, one with `@setup`), made Mooncake rules by `@from_chainrules` and checked by `test_rule`.
using ChainRulesCore
using Mooncake
using Random: Xoshiro

mylogistic(x) = 1 / (1 + exp(-x))
@scalar_rule mylogistic(x) Ω * (1 - Ω)
@from_chainrules Mooncake.DefaultCtx Tuple{typeof(mylogistic), Float64}

hyp(x, y) = sqrt(x^2 + y^2)
@scalar_rule hyp(x, y) @setup(r = 1 / Ω) (x * r, y * r)
@from_chainrules Mooncake.DefaultCtx Tuple{typeof(hyp), Float64, Float64}

y, pb = rrule(hyp, 3.0, 4.0)
println(y, " ", pb(1.0))
println(frule((NoTangent(), 1.0, 0.0), hyp, 3.0, 4.0))
loss(x) = sum(mylogistic.(x)) + hyp(x[1], x[2])
c = Mooncake.prepare_gradient_cache(loss, [3.0, 4.0])
println(Mooncake.value_and_gradient!!(c, loss, [3.0, 4.0]))
Mooncake.TestUtils.test_rule(Xoshiro(1), hyp, 3.0, 4.0; is_primitive = true)
Mooncake.TestUtils.test_rule(Xoshiro(1), mylogistic, 0.3; is_primitive = true)
