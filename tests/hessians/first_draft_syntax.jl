# Second derivatives through destructuring parameters, radicals, tuple broadcasting, `push!`
# of several values and slurping.
# hessian: smiled([1.3, 0.2, -0.5, 0.7])
# hessian: radicals([0.7, 1.9, 2.4])
# hessian: over_tuples([0.4, 1.7])
# hessian: pushed([0.8, -0.3])
# hessian: slurped([0.3, 0.9, 1.4])
const w1, w2 = 0.5, 2.0
smile(K, (a, b, c)) = a + b * K + c * K^2
smiled(p) = smile(p[1], (p[2], p[3], p[4]))^2 * w1
radicals(x) = sum(√, x) * √x[1]^3 + ∛x[1] * ∜x[2] + √(x[3]^2 + 1)
function over_tuples(x)
    t = (x[1], x[2]) .* w2 .+ (1.0, x[1] * x[2])
    s = sin.(t) .* (x[2], 3.0)
    s[1] + s[2] * t[1]
end
function pushed(x)
    v = [x[1]]
    push!(v, 2x[2], x[1]^2, sin(x[2]))
    append!(v, (x[1] / 2, 1.0), [3x[2]])
    sum(v .* v)
end
function slurped(x)
    h, rest... = x
    m, ms... = (x[1] * x[2], x[3], 2.0)
    h * sum(abs2, rest) + m * ms[1] + ms[2]
end
