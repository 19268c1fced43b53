# check: damped([0.5, -1.2, 2.0], 0.3)
# check: piecewise([0.4, 1.5])
# check: integrate([1.0, 0.3], 0.25)
# Local functions with default arguments reading a captured parameter, with methods for
# integers and floats, and with keyword arguments, through both modes.
function damped(x, γ)
    step(v, rate = γ) = v * exp(-rate)
    s = 0.0
    for v in x
        s += step(v) + step(v, 2γ)^2
    end
    s
end

function piecewise(p)
    part(k::Int) = k * p[1]
    part(t::Float64) = sin(t * p[2])
    part(2) + part(p[1]) * part(3)
end

function integrate(u0, h)
    rhs(u; k = u0[2]) = -k * u
    step(u; dt = h, k = u0[2]) = u + dt * rhs(u; k = k)
    u = u0[1]
    for n in 1:4
        u = step(u) + step(u; dt = h / 2, k = 2 * u0[2]) * 0.1
    end
    u
end
