# check: f([1.0, 2.0, 3.0], [-1.0, 0.5, 2.0])
function f(x, y)
    nx = norm(x)
    ny = norm(y)
    dot(x, y) / (nx * ny)
end
