# check: smoothness_loss([0.3, -1.2, 0.8, 2.0, 0.1, -0.4])
# A first draft of graph smoothing: the graph is an adjacency dictionary, the loss a data
# misfit plus the Laplacian quadratic form xᵀ L x built from the dictionary.
const edges = [(1, 2), (1, 3), (2, 3), (3, 4), (4, 5), (5, 6), (6, 4)]
const observed = [0.0, -1.0, 1.0, 1.5, 0.5, 0.0]
function adjacency(n, edges)
    adj = Dict{Int, Vector{Int}}()
    for i in 1:n
        adj[i] = Int[]
    end
    for (a, b) in edges
        push!(adj[a], b)
        push!(adj[b], a)
    end
    adj
end
function laplacian(adj, n)
    L = zeros(n, n)
    for (i, nbrs) in adj
        L[i, i] = length(nbrs)
        for j in nbrs
            L[i, j] -= 1.0
        end
    end
    L
end
function smoothness_loss(x)
    n = length(x)
    L = laplacian(adjacency(n, edges), n)
    0.5 * sum(abs2, x .- observed) + 0.1 * x' * L * x
end
