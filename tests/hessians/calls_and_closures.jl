# Second derivatives through calls that are not inlined, recursion, closures and broadcasting.
# hessian: big_calls(0.4)
# hessian: recursive([0.9, 1.1])
# hessian: closures([0.3, 0.8, -0.5])
# hessian: broadcast_sum([0.2, -0.7, 1.5])
function big(x, y)
    a = sin(x) * y + cos(y) * x
    b = exp(a / 10) + a^2 - x * y
    c = tanh(b) + b / 3 + a * b
    d = log(1 + c^2) + sqrt(1 + a^2)
    e = atan(d, c) + hypot(a, b) + d * c
    f = e / (1 + e^2) + a - b + c - d
    g = f^3 - 2f + sin(f) * cos(e)
    h = g / 7 + f * e - d * c + b * a
    return h + g + f
end
big_calls(x) = big(x, 2.0) * big(2.0, x) + x
pw(x, n) = n == 0 ? 1.0 : x * pw(x, n - 1)
recursive(x) = pw(x[1], 4) * pw(x[2], 3) + pw(x[1] * x[2], 2)
function closures(x)
    a = x[1]
    f = t -> a * t^2 + sin(t * a)
    sum(map(f, x)) + sum(y -> y * a, x)
end
broadcast_sum(x) = sum(sin.(x) .* x .+ x .^ 3)
