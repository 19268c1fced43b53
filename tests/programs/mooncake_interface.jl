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

# Jacobians, Hessian-vector products and Hessians (Mooncake's documented examples).
hf(x) = sum(x .* x)
hx = [1.0, 2.0]
hcache = Mooncake.prepare_hvp_cache(hf, hx)
f_val, grad, hvp = Mooncake.value_and_hvp!!(hcache, hf, [1.0, 0.0], hx)
println(f_val ≈ 5.0 && grad ≈ [2.0, 4.0] && hvp ≈ [2.0, 0.0])
sq(x) = sum(x .^ 2)
hcache = Mooncake.prepare_hessian_cache(sq, [1.0, 2.0, 3.0])
println(Mooncake.value_gradient_and_hessian!!(hcache, sq, [1.0, 2.0, 3.0]))
rosen(x) = (1 - x[1])^2 + 100 * (x[2] - x[1]^2)^2
hcache = Mooncake.prepare_hessian_cache(rosen, [1.2, 1.2])
_, _, H = Mooncake.value_gradient_and_hessian!!(hcache, rosen, [1.2, 1.2])
println(H)
vecf(x) = [x[1] * x[2], sin(x[1]), x[2]^2]
println(Mooncake.value_and_jacobian!!(Mooncake.prepare_derivative_cache(vecf, [1.0, 2.0]), vecf, [1.0, 2.0]))
println(Mooncake.value_and_jacobian!!(Mooncake.prepare_pullback_cache(vecf, [1.0, 2.0]), vecf, [1.0, 2.0]))
# Several arguments: gradients per argument and Hessian blocks `H[k][j]`.
two(a, b) = sum(a .* b) + a[1]^2 * b[2]
hcache = Mooncake.prepare_hessian_cache(two, [1.0, 2.0], [3.0, 4.0])
println(Mooncake.value_gradient_and_hessian!!(hcache, two, [1.0, 2.0], [3.0, 4.0]))
println(Mooncake.value_and_hvp!!(hcache, two, ([1.0, 0.0], [0.0, 1.0]), [1.0, 2.0], [3.0, 4.0]))
