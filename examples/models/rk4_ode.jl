# A damped oscillator integrated with classic Runge-Kutta; the loss is the distance of the
# final state from a target, as a function of the damping and stiffness (p).
# mooncake grad examples/models/rk4_ode.jl --call 'miss(p0())'
# check: miss(p0())
f(u, p) = [u[2], -p[2] * u[1] - p[1] * u[2]]

function rk4(u, p, h, steps)
    for _ in 1:steps
        k1 = f(u, p)
        k2 = f(u + h / 2 * k1, p)
        k3 = f(u + h / 2 * k2, p)
        k4 = f(u + h * k3, p)
        u = u + h / 6 * (k1 + 2k2 + 2k3 + k4)
    end
    u
end

target = [0.1, -0.2]
p0() = [0.3, 2.0]
miss(p) = sum(abs2, rk4([1.0, 0.0], p, 0.05, 40) - target)

println("miss(p0) = ", miss(p0()))
