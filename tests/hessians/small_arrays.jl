# Second derivatives through small arrays that become scalars: literals, broadcasts, a few
# Runge–Kutta steps, a 2×2 matrix literal.
# hessian: lv_miss([1.5, 1.0, 3.0, 1.0])
# hessian: mat([1.5, -0.5])
# hessian: pair_energy([0.1, 0.4, -0.3, 0.9])
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

lv_miss(p) = sum(abs2, rk4(lotka_volterra, [1.0, 1.0], p, 0.01, 10) - [1.2, 0.8])

function mat(x)
    A = [x[1] x[2]; x[1] * x[2] 4.0]
    A[2, 1] * A[4] + A[1, 2]^2 * A[1, 1]
end

function pair_energy(q)
    d = [q[1], q[2]] - [q[3], q[4]]
    1 / sqrt(sum(abs2, d) + 0.1) + sum(d .^ 2)
end
