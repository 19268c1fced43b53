# eachslice along each dimension of a three-dimensional array and of a matrix (views).
A = reshape(collect(1.0:8.0), 2, 2, 2)
for S in eachslice(A; dims = 3)
    println(S, " ", sum(S))
end
println(eachslice(A; dims = 1))
M = [1 2; 3 4]
println(eachslice(M; dims = 1), " ", typeof(eachslice(M; dims = 2)) == typeof(eachcol(M)))
S = eachslice(A; dims = 3)[2]
S[1, 1] = 0.0
println(A[1, 1, 2])
