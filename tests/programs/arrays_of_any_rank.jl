# Arrays of five and six dimensions, written as a user would: construction, shape, indexing,
# assignment, broadcasting, reductions over dimensions, views, and generic code over the rank.

A = zeros(2, 3, 2, 2, 2)
println(typeof(A), " ", size(A), " ", ndims(A), " ", length(A))
A[2, 3, 1, 2, 2] = 5.0
A[1, 1, 1, 1, 1] += 1.0
println(sum(A), " ", A[2, 3, 1, 2, 2], " ", A[end, end, 1, end, end], " ", A[22])

B = reshape(collect(1.0:48.0), 2, 3, 2, 2, 2)
println(B[2, 1, 2, 1, 2], " ", B[:, 3, 1, 1, 1], " ", size(B[:, :, 1, :, 2]), " ", B[1, 2:3, 2, 1, [1, 2]])
println(size(B, 5), " ", size(B, 7), " ", axes(B, 4), " ", axes(B)[2])
println(sum(B; dims = 5)[:, :, 1, 1, 1], " ", size(sum(B; dims = (2, 4))), " ", maximum(B; dims = (1, 3))[1, :, 1, 2, 2])
println(sum(B), " ", maximum(B), " ", prod(B[:, 1, 1, 1, :]))

C = ones(Int64, 2, 1, 2, 1, 2)
D = fill(0.5, (1, 3, 1, 2, 1))
E = C .+ D .* 2
println(typeof(E), " ", size(E), " ", E[2, 3, 2, 2, 2])
F = B .- reshape([10.0, 20.0], 1, 1, 1, 1, 2) .+ [100.0, 200.0]
println(size(F), " ", F[2, 1, 1, 1, 2], " ", F[1, 3, 2, 2, 1])

G = Array{Float64,5}(undef, 1, 2, 1, 1, 2)
G .= 3.0
G[1, :, 1, 1, 2] = [7.0, 8.0]
println(G)
H = similar(B)
H .= B .* 0
println(typeof(H), " ", sum(H), " ", size(similar(B, Int64, (2, 2, 2, 2, 2))))

M = zeros(2, 2, 2, 2, 2, 2)
M[1, :, 2, :, 1, 2] = ones(2, 2)
println(size(M), " ", sum(M), " ", count(x -> x > 0, M))

V = view(B, :, 2, 1, :, 2)
println(size(V), " ", V[2, 2], " ", V)
V[1, 1] = -1.0
println(B[1, 2, 1, 1, 2], " ", sum(view(B, 1, :, :, 1, 1)))

# Code written once for every rank: `Vararg{Int64, N}`, `ntuple`, splatted indices.
corner(X::Array{T,N}) where {T,N} = X[ntuple(d -> size(X, d), Val(N))...]
firstcell(X::Array{T,N}) where {T,N} = X[ntuple(d -> 1, Val(N))...]
dims(n::Vararg{Int64,N}) where {N} = N
println(corner(B), " ", firstcell(B), " ", corner(M), " ", dims(1, 2, 3, 4, 5))
at = (2, 1, 2, 1, 2)
B[at...] = 100.0
println(B[at...], " ", B[CartesianIndex(at)], " ", last(CartesianIndices(B)))
reshape(B, 2, 2, 2, 2, 2)
