A = [1 2 3; 4 5 6]
println(A)
println(size(A), " ", size(A, 1), " ", size(A, 2), " ", length(A))
println(A[2, 3], " ", A[1, 2], " ", A[5])
A[1, 1] = 10
println(A)
B = zeros(2, 3)
for j in 1:3, i in 1:2
    B[i, j] = i + 10j
end
println(B)
println(typeof(B))
C = [1.0 2.0
     3.0 4.0]
println(C)
println(C')
println(transpose([1 2; 3 4]))
println(axes(C), " ", axes(C, 2))
function colsum(M)
    s = zeros(size(M, 2))
    for j in axes(M, 2)
        for i in axes(M, 1)
            s[j] += M[i, j]
        end
    end
    s
end
println(colsum(C))
row = [1 2 3]
println(row, " ", size(row))
println(ones(2, 2))
println(fill(7, 2, 2))
println(reshape([1, 2, 3, 4, 5, 6], 2, 3))
println(vec([1 2; 3 4]))
