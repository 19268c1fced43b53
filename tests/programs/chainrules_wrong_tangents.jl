# A ChainRules pullback that forgets the function's tangent, and one that returns an integer
# for a float: errors naming the rule, never a wrong gradient.
using Mooncake
using ChainRulesCore
twice(x) = 2x
ChainRulesCore.rrule(::typeof(twice), x::Float64) = twice(x), Δ -> (2Δ,)
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(twice), Float64}
f(x) = twice(x) * x
try
    gradient(f, 1.0)
catch e
    println(e)
end
thrice(x) = 3x
ChainRulesCore.rrule(::typeof(thrice), x::Float64) = thrice(x), Δ -> (NoTangent(), 3)
Mooncake.@from_rrule Mooncake.DefaultCtx Tuple{typeof(thrice), Float64}
g(x) = thrice(x) * x
println(gradient(g, 1.0))
