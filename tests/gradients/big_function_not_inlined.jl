# check: f(0.3)
function big(x, y)
    a = sin(x) * y + cos(y) * x
    b = exp(a / 10) + a^2 - x * y
    c = tanh(b) + b / 3 + a * b
    d = log(1 + c^2) + sqrt(1 + a^2)
    e = atan(d, c) + hypot(a, b) + d * c
    g = e / (1 + e^2) + a - b + c - d
    return g^3 - 2g + sin(g) * cos(e)
end
function f(x)
    s = 0.0
    for i in 1:3
        s += big(x, i * 0.5)
    end
    s
end
