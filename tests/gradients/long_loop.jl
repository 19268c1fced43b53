# check: f(0.8)
function f(x)
    s = x
    for i in 1:500
        s = s + 0.001 * sin(s) * x
    end
    s
end
