# Arrays of four dimensions: construction, indexing, broadcasting, reductions, printing.
A = zeros(2, 3, 2, 2)
A[1, 2, 1, 2] = 5.0
println(size(A), " ", sum(A), " ", ndims(A), " ", typeof(A), " ", length(A))
B = reshape(collect(1.0:24.0), 2, 3, 2, 2)
println(B[2, 3, 2, 2], " ", B[7], " ", size(B, 4), " ", axes(B, 4))
C = B .* 2 .+ A
println(C[1, 2, 1, 2], " ", typeof(C), " ", maximum(C), " ", argmax(C))
println(reshape(collect(1:16), 2, 2, 2, 2))
D = ones(Float32, 1, 1, 2, 1)
println(D, " ", fill(7, (1, 2, 1, 1)), " ", similar(B, Int, (1, 1, 1, 1)) isa Array{Int,4})
s = 0.0
for I in CartesianIndices(B)
    global s += B[I] * I[4]
end
println(s, " ", sum(abs2, B .- 1.0))
E = zeros(2, 2, 1, 3)
E .= reshape(collect(1.0:12.0), 2, 2, 1, 3) .* [1.0, 10.0]
println(E[2, 1, 1, 3], " ", E[1, 2, 1, 3], " ", E[2, 2, 1, 3])
X = reshape(collect(1.0:24.0), 2, 3, 2, 2)
println(X[:, :, 1, 2], " ", X[2, :, 2, 1], " ", size(X[:, 1:2, :, 2]), " ", X[1, 2, :, :])
println(sum(X; dims = 4), " ", size(sum(X; dims = (1, 2))), " ", maximum(X; dims = 3)[:, :, 1, 2])
Y = zeros(2, 3, 2, 2)
Y[:, :, 1, 2] = ones(2, 3)
Y[1, :, 2, :] = fill(7.0, 3, 2)
println(sum(Y), " ", Y[1, 3, 2, 1], " ", Y[2, 2, 1, 2])
# Mixed ranks and differing trailing extents broadcast as Julia's do.
F = X[:, :, :, 1:1] .+ reshape(collect(1.0:12.0), 2, 3, 2) .* 100
println(size(F), " ", F[2, 3, 2, 1], " ", F[1, 1, 1, 1])
G = X .* reshape([1.0, 10.0], 1, 1, 1, 2) .- X[:, :, 1:1, :]
println(size(G), " ", G[2, 3, 2, 2], " ", G[1, 2, 2, 1])
H = zeros(2, 3, 2, 2)
H .= X[:, :, 1:1, 2:2] .+ 0.5
println(H[2, 3, 2, 1], " ", H[1, 1, 1, 2])
