# check: f([0.5, -0.7, 1.1])
function f(x)
    A = [1.0 2.0 0.5; -1.0 0.5 2.0]
    y = A * x
    dot(y, y) + norm(x)
end
