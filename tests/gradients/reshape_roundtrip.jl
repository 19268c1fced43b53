# check: f([0.5, -0.7, 1.1, 2.0])
function f(x)
    M = reshape(x, 2, 2)
    M[1, 2] * M[2, 1] + sum(vec(M))
end
