# Keyword arguments and splatting through reverse mode: calls with keywords become static
# calls of the function's keyword method, splatted tuples plain calls on their elements.
# check: use_kw([0.5, 1.5])
# check: use_splat([0.5, 3.5])
# check: vararg_kw(1.5, [0.25, -0.75, 2.0])
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
