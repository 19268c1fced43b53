# Second derivatives through ranges built from values that carry derivatives.
# hessian: ranged([2.0, 0.5])
function ranged(x)
    r = range(x[1], x[1] + 2x[2], length = 5)
    sum(abs2, r) + sum(sin.(x[2] .* (0:0.25:1)))
end
