# check: f([0.5, -0.7, 1.1])
function f(x)
    A = [x[1] x[2] 0.5; x[3] 1.0 x[1]]
    c = A[:, 2]
    r = A[2, :]
    sum(c) * sum(r)
end
