# Reading and writing with three indices in loops (compiled code): 3-d arrays, trailing ones
# on a matrix and a vector, `size(A, d)` of a 3-d array, and indices out of bounds in the
# second and third dimensions.
function fill3!(W)
    for k in 1:size(W, 3), j in 1:size(W, 2), i in 1:size(W, 1)
        W[i, j, k] = 100i + 10j + k
    end
    W
end
function total3(W)
    s = 0.0
    for k in 1:size(W, 3), j in 1:size(W, 2), i in 1:size(W, 1)
        s += W[i, j, k] * (i - j + 2k)
    end
    s
end
function trailing(M, v)
    s = 0.0
    for j in 1:size(M, 2), i in 1:size(M, 1)
        s += M[i, j, 1]
    end
    for i in 1:length(v)
        s += v[i, 1, 1]
    end
    s
end
function outside(W, j, k)
    s = 0.0
    for i in 1:2
        s += W[i, j, k]
    end
    s
end
W = fill3!(zeros(2, 3, 4))
println(W[2, 3, 4], " ", total3(W), " ", size(W, 3))
println(trailing([1.0 2.0; 3.0 4.0], [0.5, 0.25]))
println(outside(W, 3, 4))
println(outside(W, 1, 5))
