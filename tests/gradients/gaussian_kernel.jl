# check: f(2.0) => 0.6065306597126334
# check: kernel_sum([0.0, 1.0, 2.5], 0.7)
# check: g(1.5) => 0.125
# Unary minus binds looser than `^`: `-(x - 1)^2` is `-((x - 1)^2)`.
f(x) = exp(-(x - 1.0)^2 / 2)
g(x) = -(x - 1.0)^2 * 3 + (x - 1)x / 2 - 2x'x / 3x + x
function kernel_sum(x, l)
    s = 0.0
    for i in eachindex(x), j in eachindex(x)
        s += exp(-(x[i] - x[j])^2 / (2l^2))
    end
    s
end
