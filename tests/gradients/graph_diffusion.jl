# check: diffusion_loss([0.5, 0.1])
# A first draft of heat diffusion on a graph: a weighted Laplacian built from an edge list
# with `Diagonal`, implicit Euler steps by `\`, and the trace as a regulariser.
using LinearAlgebra

const edges = [(1, 2), (2, 3), (3, 4), (4, 1), (1, 3), (4, 5), (5, 6)]
const nv = 6

function laplacian(edges, n; weights = ones(length(edges)))
    A = zeros(n, n)
    for ((i, j), w) in zip(edges, weights)
        A[i, j] += w
        A[j, i] += w
    end
    D = Diagonal(vec(sum(A, dims = 2)))
    return D - A
end

const u0 = [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
const observed = [0.30, 0.22, 0.18, 0.16, 0.09, 0.05]

# heat diffusion du/dt = -κ L u, implicit Euler steps
function diffuse(L, u, κ, dt, steps)
    M = I + dt * κ * L
    for _ in 1:steps
        u = M \ u
    end
    u
end

function diffusion_loss(p)
    κ, w = exp(p[1]), exp(p[2])
    L = laplacian(edges, nv; weights = [1.0, 1.0, 1.0, 1.0, w, 1.0, 1.0])
    u = diffuse(L, u0, κ, 0.1, 10)
    sum(abs2, u - observed) + 0.01 * tr(L) / nv
end
