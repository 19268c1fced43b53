# check: stacked([0.3, -1.2, 0.7, 2.0])
# `stack`, `reduce(hcat, vs)`, `normalize` and `cross` of vectors built from the input.
using LinearAlgebra
function stacked(x)
    vs = [x[1:2], x[3:4], x[2:3] .* 2]
    S = stack(vs) + reduce(hcat, vs)
    R = stack(vs; dims = 1)
    u = normalize(x[1:3])
    w = cross(u, x[2:4]) + x[1:3] × [1.0, 2.0, 3.0]
    sum(S .* S) + sum(abs2, R * x[1:2]) + dot(w, u) + sum(reduce(vcat, vs) .^ 3)
end
