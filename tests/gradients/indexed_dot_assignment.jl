# check: f([1.0, 2.0], 3.0) => 74.0
# check: g([1.0, -2.0, 0.5], [0.25, 4.0]) => 20.625
# Broadcasting into slices writes into the array; their cotangents flow back.
function f(w, b)
    z = zeros(3)
    z[1:2] .= w .* b
    z[3] = sum(w)
    z[2:3] .+= 1.0
    sum(z .^ 2)
end
function g(x, y)
    A = zeros(2, 3)
    A[1, :] .= x
    A[:, 2] .+= y
    A[2, [1, 3]] = [x[3], y[1]]
    s = 0.0
    for j in 1:3, i in 1:2
        s += A[i, j]^2
    end
    s
end
