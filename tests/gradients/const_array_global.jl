# check: f(1.1)
const W = [0.5, -1.0, 2.0]
function f(x)
    s = 0.0
    for i in eachindex(W)
        s += W[i] * x^i
    end
    s
end
