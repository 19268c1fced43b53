# check: f!([0.5, -1.0, 2.0])
function f!(x)
    x[2] = x[1] + x[2]
    x[2] = x[2] * x[3]
    x[1] = x[2] - x[1]
    x[1] * x[2] * x[3]
end
