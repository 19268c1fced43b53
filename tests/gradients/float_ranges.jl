# check: quadrature(1.3)
# check: fit_on_grid([1.0, 2.0, 0.5])
# check: interpolated([0.4, -1.0, 2.0, 0.3])
# Float ranges are constants: time grids and sample points carry no derivative.
quadrature(k) = sum(exp(-k * t) * 0.1 for t in 0:0.1:1)
fit_on_grid(c) = sum(abs2, [c[1] + c[2] * x + c[3] * x^2 - cos(x) for x in range(0, 1, length = 7)])
function interpolated(v)
    s = 0.0
    for (i, t) in enumerate(LinRange(0, 2, length(v)))
        s += v[i] * sin(t) + v[i]^2 * t
    end
    s
end
