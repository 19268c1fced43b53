# check: f(0.4, -1.2)
function f(x, y)
    t = (x * y, x + y, 3)
    a, b, n = t
    (a * b)^2 / n
end
