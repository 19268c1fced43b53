# The energy after a few leapfrog steps of three bodies under gravity, as a function of the
# initial positions (x1, y1, x2, y2, x3, y3).
# mooncake grad examples/models/nbody.jl --call 'final_energy(positions0())'
# check: final_energy(positions0())
const masses = [1.0, 0.5, 0.3]

function accelerations(x, y)
    n = length(x)
    ax = zeros(n)
    ay = zeros(n)
    for i in 1:n, j in 1:n
        if i != j
            dx = x[j] - x[i]
            dy = y[j] - y[i]
            r3 = (dx^2 + dy^2 + 0.01)^1.5
            ax[i] += masses[j] * dx / r3
            ay[i] += masses[j] * dy / r3
        end
    end
    ax, ay
end

function energy(x, y, vx, vy)
    e = sum(0.5 * masses .* (vx .^ 2 + vy .^ 2))
    for i in 1:length(x), j in (i + 1):length(x)
        e -= masses[i] * masses[j] / sqrt((x[i] - x[j])^2 + (y[i] - y[j])^2 + 0.01)
    end
    e
end

function final_energy(p)
    x = p[[1, 3, 5]]
    y = p[[2, 4, 6]]
    vx = [0.0, 0.3, -0.2]
    vy = [0.1, -0.1, 0.4]
    h = 0.01
    for _ in 1:20
        ax, ay = accelerations(x, y)
        vx = vx + h / 2 * ax
        vy = vy + h / 2 * ay
        x = x + h * vx
        y = y + h * vy
        ax, ay = accelerations(x, y)
        vx = vx + h / 2 * ax
        vy = vy + h / 2 * ay
    end
    energy(x, y, vx, vy)
end

positions0() = [0.0, 0.0, 1.0, 0.0, -0.5, 0.8]

println("final_energy(positions0) = ", final_energy(positions0()))
