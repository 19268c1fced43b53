# check: damped([0.5, -1.2, 2.0], 0.3)
# check: piecewise([0.4, 1.5])
# Local functions with default arguments reading a captured parameter, and with methods
# for integers and floats, through both modes.
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
