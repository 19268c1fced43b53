# check: f(0.3, -0.6)
function model(p, x)
    p.a * x^2 + p.b * x + p.c
end
f(a, b) = model((a = a, b = b, c = 1.0), 2.0) * model((a = b, b = a, c = 0.0), -1.0)
