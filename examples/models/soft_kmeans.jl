# Soft k-means: the expected squared distance of points to centres under soft assignments
# (a softmax of negative distances), as a function of the centres (one per column).
# mooncake grad examples/models/soft_kmeans.jl --call 'objective(centres0())'
# check: objective(centres0())
points = [0.0 0.2 1.0 1.1 -1.0 -0.9; 0.1 -0.1 1.0 0.9 0.5 0.4]
centres0() = [0.0 1.0 -1.0; 0.0 1.0 0.0]
β = 4.0

function objective(C)
    n = size(points, 2)
    k = size(C, 2)
    D = [sum(abs2, points[:, i] - C[:, j]) for j in 1:k, i in 1:n]
    W = exp.(-β .* (D .- minimum(D, dims = 1)))
    W = W ./ sum(W, dims = 1)
    sum(W .* D) / n
end

println("objective(centres0) = ", objective(centres0()))
