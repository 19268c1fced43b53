# check: f(0.8)
function f(x)
    s = 0.0
    for i in 1:6
        if iseven(i)
            s += x * i
        else
            s -= x^2 / i
        end
    end
    s
end
