# Three-dimensional arrays: construction, reshaping, slices, assignment into slices, arithmetic,
# broadcasting, reductions over dimensions, permutedims and dropdims.
using Statistics
A = reshape(collect(1.0:24.0), 2, 3, 4)
println(A[2, 3, 4], " ", size(A), " ", ndims(A), " ", A[:, 2, 3], " ", A[1, :, :])
println(A[:, :, 1], " ", A[1, 2:3, [1, 4]], " ", A[end, end, end], " ", A[7])
println(sum(A), " ", sum(A; dims = 3), " ", sum(A; dims = (1, 2)), " ", maximum(A; dims = 2))
B = zeros(2, 2, 2)
B[:, :, 1] = [1.0 2.0; 3.0 4.0]
B[2, :, 2] = [5.0, 6.0]
B[1, 1, :] .= 9.0
println(B)
println(B + B, " ", 2B, " ", B .- 1, " ", -B == B * -1)
println(permutedims(A, (3, 1, 2))[:, 1, 1], " ", size(permutedims(A, (2, 3, 1))), " ", permutedims([1 2; 3 4]), " ", permutedims([1, 2]))
C = dropdims(sum(A; dims = 3); dims = 3)
println(C, " ", size(dropdims(sum(A; dims = (1, 3)); dims = (1, 3))))
println(ones(2, 1, 2) .* [1.0, 2.0]', " ", fill(2, 1, 1, 2), " ", zeros(Int64, (1, 1, 1)))
println(mean(A; dims = 3)[:, :, 1], " ", [a for a in B][1:3], " ", length(collect(A)))
println(similar(A) |> size, " ", size(reshape(A, 4, 6)), " ", reshape(1:6, (3, 2)) |> size, " ", vec(B)[2])
V = view(A, 1, :, 2:3)
V[2, 1] = -1.0
println(V, " ", size(V), " ", A[1, 2, 2], " ", selectdim(A, 3, 4)[2, 1], " ", sum(view(A, :, 1, :)))
M = [1 2; 3 4]
println(M[1:3], " ", M[[1, 4]], " ", M[:], " ", M[M .> 1])
M[1:2] = [7, 8]
M[M .> 7] .= 0
M[end] = 9
println(M, " ", view(M, 2:3))
P = reshape(collect(1.0:12.0), 3, 4)
Q = view(P, 2:3, :)
R = view(Q, 2, 2:3)
R[1] = 0.0
println(R, " ", typeof(R), " ", P[3, 2], " ", typeof(view(Q, :, 1)), " ", view(view(P, :, 2), [1, 3]))
