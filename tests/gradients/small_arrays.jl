# check: lv_miss([1.5, 1.0, 3.0, 1.0])
# check: norm3(0.3, -1.2)
# check: mat(1.5)
# check: escapes_sum(0.7)
# check: given(2.0)
# check: body_forces([0.1, 0.4, -0.3, 0.9])
# check: triangle(1.3)
# Small arrays of known size: literals, broadcasts over them, loops over their elements.
lotka_volterra(u, p) = [p[1] * u[1] - p[2] * u[1] * u[2], p[4] * u[1] * u[2] - p[3] * u[2]]

function rk4(f, u, p, h, steps)
    for _ in 1:steps
        k1 = f(u, p)
        k2 = f(u + h / 2 * k1, p)
        k3 = f(u + h / 2 * k2, p)
        k4 = f(u + h * k3, p)
        u = u + h / 6 * (k1 + 2k2 + 2k3 + k4)
    end
    u
end

lv_miss(p) = sum(abs2, rk4(lotka_volterra, [1.0, 1.0], p, 0.01, 20) - [1.2, 0.8])

function norm3(x, y)
    v = [x, y, x * y]
    w = zeros(3)
    for i in 1:3
        w[i] = v[i]^2
    end
    sqrt(sum(w))
end

function mat(a)
    A = [a 2.0; 3.0 a^2]
    A[2, 1] * A[4] + A[1, 2] * A[1, 1]
end

function escapes(x)
    v = [x, 2x]
    for i in 1:length(v)
        v[i] *= x
    end
    v
end
escapes_sum(x) = sum(escapes(x)) + escapes(x)[2]

grow!(v, x) = push!(v, x^2)
function given(x)
    v = [x, x]
    grow!(v, x)
    v[1] * v[3]
end

# Pairwise forces of two bodies in the plane, with small vectors for positions.
function body_forces(q)
    a = [q[1], q[2]]
    b = [q[3], q[4]]
    d = a - b
    r = sqrt(d[1]^2 + d[2]^2)
    f = d / r^3
    sum(f .* f) + f[1]
end

# Loops of a few constant trips, one bounded by the other's variable.
function triangle(x)
    s = 0.0
    for i in 1:3, j in 1:i
        s += x^i * j
    end
    s
end
