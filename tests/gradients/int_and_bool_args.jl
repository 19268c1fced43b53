# check: f(0.7, 4, true)
# check: f(0.7, 3, false)
function f(x, n, flag)
    s = 0.0
    for i in 1:n
        s += flag ? x^i : -x
    end
    s
end
