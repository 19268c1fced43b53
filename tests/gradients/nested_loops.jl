# check: f(0.9)
function f(x)
    s = 0.0
    for i in 1:4
        for j in 1:i
            s += x^i / j
        end
    end
    s
end
