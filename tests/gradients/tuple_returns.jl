# check: f([1.0, 2.0, 3.5])
# Callees returning tuples (boxed, register and singleton fields; chosen, constant, carried).
function pick(x, b)
    t = (x, [x, 2x], nothing)
    u = (2x, [3x], nothing)
    b ? t : u
end
consts() = (1, 2.5, nothing)
direct(x) = (x + 1.0, x * 2.0)
function carried(x)
    t = (0.0, 0)
    for i in 1:3
        t = (t[1] + x, t[2] + i)
    end
    t
end
function f(v)
    s = 0.0
    for x in v
        a = pick(x, x > 1.5)
        d = direct(x)
        e = carried(x)
        s += a[1] * sum(a[2]) + consts()[2] * d[1] * d[2] + e[1] * e[2]
    end
    s
end
