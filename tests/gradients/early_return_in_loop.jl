# check: f(0.5)
# check: f(-3.0)
function f(x)
    s = x
    for i in 1:20
        s = s * 1.3 + 0.1
        if s > 5.0
            return s * i
        end
    end
    return -s
end
