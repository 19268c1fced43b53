# check: f(0.6)
function f(x)
    v = [x, 2x]
    append!(v, [x^2, 1.0])
    sum(v) * v[3]
end
