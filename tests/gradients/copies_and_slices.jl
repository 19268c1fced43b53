# check: f([0.5, -0.7, 1.1])
function f(x)
    y = copy(x)
    y[1] = 10.0
    z = x[2:end]
    sum(y) * sum(z) + x[1]
end
