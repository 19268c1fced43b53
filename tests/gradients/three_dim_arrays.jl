# check: tensor_model([0.3, -0.8, 1.1, 0.5, 2.0, -1.4, 0.7, 0.9, -0.2, 1.3, 0.4, -0.6])
# check: slice_writes([1.2, -0.4, 0.6, 2.2, -1.0, 0.3, 0.8, 1.5])
# check: stacked([0.4, -0.9, 1.3, 0.2])
# check: slice_norms([0.3, -1.1, 0.8, 1.6, -0.4, 2.1, 0.9, -0.7])
using Statistics
using LinearAlgebra
# A batch of 2×3 feature maps (two of them) reshaped from a vector: broadcasting against a
# matrix and a vector, reductions over each dimension, slices and permutedims.
function tensor_model(θ)
    X = reshape(θ, 2, 3, 2)
    W = [1.0 -0.5 0.25; 0.5 2.0 -1.0]
    Y = tanh.(X .* W .+ [0.1, -0.2])
    s1 = sum(Y; dims = 3)
    s2 = maximum(Y; dims = 2)
    P = permutedims(Y, (3, 1, 2))
    sum(abs2, s1) + sum(s2) + sum(P[:, 1, :] .^ 2) + mean(Y[2, :, :]) + sum(dropdims(sum(Y; dims = (1, 2)); dims = (1, 2)))
end
# Writes into slices and views of a three-dimensional array.
function slice_writes(v)
    A = zeros(2, 2, 2)
    A[:, :, 1] = [v[1] v[2]; v[3] v[4]]
    A[1, :, 2] = v[5:6] .* 2.0
    B = view(A, 2, :, :)
    B[:, 2] .= v[7] * v[8]
    A[2, 1, 1] += sin(v[1])
    sum(A .* A) + prod(A[1, 1, :])
end
# Tiles and stacks: repeat and cat along the third dimension.
function stacked(v)
    M = [v[1] v[2]; v[3] v[4]]
    S = cat(M, M .^ 2, repeat(v[1:2], 1, 2); dims = 3)
    sum(S .* reshape(collect(1.0:12.0), 2, 2, 3)) + sum(repeat(v; inner = 2, outer = 2) .^ 3)
end
# Norms of the slices along the third dimension, through `eachslice` views.
slice_norms(v) = sum(norm(S) * i for (i, S) in enumerate(eachslice(reshape(v, 2, 2, 2); dims = 3)))
