# Both operands of `*` are union-typed (four member combinations), and a helper returns
# either an Int or its Float64 argument.
# check: horner_union([1.0, 2.0, 3.0])
# check: clipped_squares([0.5, 2.0, 0.7])
function horner_union(x)
    z = 0
    for v in x
        z = z * v + v
    end
    z * z
end
clip(a) = a > 1.0 ? 1 : a
function clipped_squares(x)
    s = 0
    for v in x
        s += clip(v) * clip(v)
    end
    s
end
