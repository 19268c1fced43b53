# check: f([0.5, -0.7, 1.1])
function matmul(A, B)
    m, k = size(A)
    n = size(B, 2)
    C = zeros(m, n)
    for i in 1:m, j in 1:n
        for l in 1:k
            C[i, j] += A[i, l] * B[l, j]
        end
    end
    C
end
function f(x)
    A = [x[1] x[2]; x[3] x[1]]
    C = matmul(A, A)
    sum(C) + C[1, 2]
end
