# check: quadratic_smile(1.3, [0.2, -0.5, 0.7])
# check: lstm_like([0.3, -0.2, 0.5, 0.1])
# check: radical_loss([0.7, 1.9, 2.4])
# check: tuple_broadcast_loss(0.4, 1.7)
# check: pushed_loss(0.8)
# check: slurped_loss([0.3, 0.9, 1.4])
# check: const_scaled(2.5) => 18.0
# check: views_pair([1.0 2.0; 3.0 4.0; 5.0 6.0], [0.5, -1.0, 2.0])
# Constructs a first draft uses, differentiated: several constants at once, destructuring
# parameters, prefix radicals, broadcasting over tuples, `push!` of several values, slurping,
# `@views` on a tuple assignment.
const a0, b0 = 2.0, 1.5
const c0::Float64 = 3
const_scaled(x) = a0 * x^2 + b0 * x + c0 - 1.25
smile(K, (a, b, c)) = a + b * K + c * K^2
quadratic_smile(K, p) = smile(K, (p[1], p[2], p[3]))^2
struct Cell
    W::Matrix{Float64}
end
(cell::Cell)((h, c), x) = (tanh.(cell.W * x .+ h), c + sum(x))
function lstm_like(p)
    cell = Cell([p[1] p[2]; p[3] p[4]])
    h, c = cell(([0.1, 0.2], 0.0), [p[1], p[4]])
    h2, c2 = cell((h, c), h)
    sum(h2) * c2
end
radical_loss(x) = sum(√, x) * √x[1]^3 + ∛x[1] * ∜x[2] + √(x[3]^2 + 1) + 2√x[2]
function tuple_broadcast_loss(u, v)
    t = (u, v) .* 2.0 .+ (1.0, u * v)
    s = sin.(t) .* (v, 3.0)
    s[1] + s[2] * t[1]
end
function pushed_loss(x)
    v = [x]
    push!(v, 2x, x^2, sin(x))
    append!(v, (x / 2, 1.0), [3x])
    sum(v .* v)
end
function slurped_loss(x)
    h, rest... = x
    m, ms... = (x[1] * x[2], x[3], 2.0)
    h * sum(rest) + m * ms[1] + ms[2]
end
function views_pair(X, y)
    idx = [1, 3]
    @views Xb, yb = X[idx, :], y[idx]
    sum(Xb * [1.0, -1.0] .* yb)
end
