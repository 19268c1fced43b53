# Mooncake's interface in the language, with the examples of its documentation: rules, caches
# and the values with derivatives they compute, overlays.
using Mooncake
using Mooncake: zero_fcodual, CoDual, NoFData, rrule!!, @zero_adjoint, DefaultCtx, @is_primitive

# A built-in rule, through the user-facing names.
scale(x) = 2x
rule = Mooncake.build_rrule(Tuple{typeof(scale), Float64})
println(Mooncake.value_and_gradient!!(rule, scale, 5.0))
Mooncake.@mooncake_overlay scale(x) = 3x
rule = Mooncake.build_rrule(Tuple{typeof(scale), Float64})
println(Mooncake.value_and_gradient!!(rule, scale, 5.0))
Mooncake.@mooncake_overlay function scale(x)
    return 4x
end
println(Mooncake.value_and_gradient!!(rule, scale, 5.0))
println(scale(5.0))

# Caches.
f(x, y) = sum(abs2, x) * y
x, y = [1.0, 2.0], 3.0
cache = Mooncake.prepare_gradient_cache(f, x, y)
println(Mooncake.value_and_gradient!!(cache, f, x, y))
g(x) = x .^ 2
pcache = Mooncake.prepare_pullback_cache(g, x)
println(Mooncake.value_and_pullback!!(pcache, [1.0, 1.0], g, x))
dcache = Mooncake.prepare_derivative_cache(f, x, y)
println(Mooncake.value_and_derivative!!(dcache, (f, Mooncake.NoTangent()), (x, [1.0, 0.0]), (y, 0.0)))
println(Mooncake.value_and_derivative!!(dcache, Mooncake.Dual(f, Mooncake.NoTangent()),
    Mooncake.Dual(x, [0.0, 0.0]), Mooncake.Dual(y, 1.0)))

# `@zero_adjoint`, from Mooncake's documentation.
foo(x) = 5
@zero_adjoint DefaultCtx Tuple{typeof(foo), Any}
h(x) = foo(x) * x
println(Mooncake.value_and_gradient!!(Mooncake.prepare_gradient_cache(h, 3.0), h, 3.0))
