x = [1.0, 2.0, 3.0]
y = [4.0, 5.0, 6.0]
println(dot(x, y))
println(norm([3.0, 4.0]))
A = [1.0 2.0; 3.0 4.0]
println(A * [1.0, 1.0])
println(A * A)
B = [1 2; 3 4]
println(B * [1, 0])
function mymul(A, B)
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
println(mymul(A, A) == A * A)
