# check: f(0.5, 7)
function f(x, n::Int)
    s = 0.0
    for i in 1:n
        s += x / i
    end
    s * n
end
