# check: f([0.5, -0.7, 1.1])
function f(x)
    A = zeros(2, 2)
    A[1, 1] = x[1]
    A[2, 1] = x[2] * x[1]
    A[1, 2] = x[3]
    A[2, 2] = 1.0
    s = 0.0
    for j in 1:2, i in 1:2
        s += A[i, j]^2 * i
    end
    s
end
