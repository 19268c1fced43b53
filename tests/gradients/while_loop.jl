# check: f(0.37)
function f(x)
    s = 0.0
    k = 0
    while s < 4.0
        s += x * (1 + k / 10)
        k += 1
    end
    s * k
end
