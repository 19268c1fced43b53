# Keyword arguments and splatting through reverse mode: calls with keywords become static
# calls of the function's keyword method, splatted tuples plain calls on their elements,
# splatted vectors (whose length is known only at run time) dynamic calls on their elements.
# check: use_kw([0.5, 1.5])
# check: use_splat([0.5, 3.5])
# check: use_kw_constructor([0.5, 1.5])
# check: vararg_kw(1.5, [0.25, -0.75, 2.0])
# check: splat_vector([1.0, 2.0, 3.0])
# check: splat_mixed(0.5, [1.5, -2.0])
# check: splat_any(1.25)
scaled(x; k = 2.0, p = 2) = k * x^p
addall(xs...; w = 1.0) = w * sum(xs)
function use_kw(x)
    scaled(x[1]; k = x[2]) + scaled(x[2]) + scaled(x[1], p = 3)
end
function use_splat(x)
    t = (x[1], x[2], 2.0)
    addall(t...; w = x[1]) + addall(x[2], t...) + max(t...)
end
weighted(xs...; w, shift = 0.0) = sum(xs) * w + shift
function vararg_kw(a, v)
    s = weighted(v[1], v[2]; w = a, shift = v[3])
    s + weighted((a, v[3])...; w = 2.0)
end

# Vectors splatted into calls: each element's cotangent is added to the vector's tangent.
fma3(a, b, c) = a * b + c
function splat_vector(x)
    v = [x[1], x[2] * 2.0, x[3]]
    fma3(v...) + max(x...) * min(v...)
end
function splat_mixed(a, x)
    s = 0.0
    for k in 1:3
        s += fma3(a, x...) * k + +(x..., (a, a)...)
    end
    s
end
struct Scale
    s::Float64
end
apply_all(c::Scale, x, y) = c.s * x * y
function splat_any(t)
    v = Any[Scale(t), t, 2.0]
    apply_all(v...)
end
# An outer constructor with keyword arguments, called inside the differentiated function.
struct Affine
    w::Vector{Float64}
    b::Float64
end
Affine(w; shift = 0.0, scale = 1.0) = Affine(scale .* w, shift)
use_kw_constructor(x) = (a = Affine(x; scale = x[2], shift = x[1]^2); sum(a.w) * a.b)
