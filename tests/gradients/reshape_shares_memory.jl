# check: f([1.0, 2.0, 3.0, 4.0]) => 14.0
# check: g([0.5, -1.0, 2.0, 0.25, 1.5, 3.0]) => 10.78125
# A write through a reshape is a write into the argument; its cotangent lands there too.
function f(x)
    M = reshape(x, 2, 2)
    M[1, 2] = M[1, 1] * 3.0
    sum(x) + M[2, 2]
end
# A matrix made from a vector, used as a matrix.
function g(w)
    W = reshape(w, 2, 3)
    s = 0.0
    for j in 1:3, i in 1:2
        s += W[i, j]^2 * j
    end
    s / 4.0
end
