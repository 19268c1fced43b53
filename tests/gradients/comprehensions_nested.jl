# check: pair_energy([0.3, 1.1, -0.7, 2.0])
# check: grid_sum([0.5, -1.5])
# Pairwise interactions through a nested `for` comprehension over the upper triangle.
pair_energy(x) = sum([1.0 / (1.0 + (x[i] - x[j])^2) for i in 1:length(x) for j in (i + 1):length(x)])
# A three-dimensional comprehension reduced over its dimensions.
function grid_sum(θ)
    G = [θ[1] * i + θ[2] * j^2 - k for i in 1:2, j in 1:3, k in 1:2]
    sum(abs2, G) + sum(sum(G; dims = 3))
end
