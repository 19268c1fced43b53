# check: orbit_loss([0.9, 0.3])
# check: swapped_loss([0.9, 0.3])
# check: sometimes_loss([0.9, 0.3, -0.4])
# check: previous_loss([0.9, 0.3])
# Small state vectors carried around loops, a fresh one each step, whose elements become
# variables: derivatives through the steps, swaps, conditional updates and kept states.
step(u, h) = [u[1] + h * u[2] * u[1], u[2] - h * sin(u[1])]

function orbit_loss(u0)
    u = [u0[1], u0[2]]
    for _ in 1:20
        u = step(u, 0.1)
    end
    sum(abs2, u)
end

function swapped_loss(x)
    a = [x[1], x[2]]
    b = [x[2], 2x[1]]
    for k in 1:4
        a, b = b, a
        a[1] = a[1] * b[2] + 0.1k
    end
    a[1] * b[2] + a[2]
end

function sometimes_loss(x)
    u = [x[1], x[2], x[3]]
    for k in 1:5
        if k % 2 == 0
            u = u .* u .+ 0.5
        else
            u[k % 3 + 1] = -u[1] * u[2]
        end
    end
    sum(u)
end

function previous_loss(x)
    u = [x[1], x[2]]
    prev = u
    for k in 1:3
        prev = u
        u = u + [k * u[2], -u[1]]
    end
    prev[1] * u[2]
end
