# check: lse([0.5, 2.0, -1.0])
function lse(x)
    m = maximum(x)
    s = 0.0
    for xi in x
        s += exp(xi - m)
    end
    m + log(s)
end
