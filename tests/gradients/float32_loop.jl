# check: f(0.5f0)
function f(x)
    s = 0.0f0
    for i in 1:4
        s += x^i
    end
    s
end
