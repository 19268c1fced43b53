# check: f(1.1)
function f(x)
    s = 0.0
    for i in 1:3, j in 1:2
        s += x^i * j
    end
    s
end
