# check: f(0.9)
function f(x)
    k = 0
    s = x
    while k < 8
        s = s > 1.0 ? s / 2 : s * 3
        k += 1
    end
    s
end
