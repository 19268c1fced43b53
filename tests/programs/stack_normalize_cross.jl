# `stack`, `reduce(hcat/vcat, vs)`, `normalize`, `cross` (also as `×`), and ranges as arrays.
using LinearAlgebra
vs = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]
println(stack(vs), " ", stack(vs; dims = 1), " ", reduce(hcat, vs), " ", reduce(vcat, vs))
println(size(stack([ones(2, 2), zeros(2, 2)])), " ", normalize([3.0, 4.0]), " ", cross([1.0, 0, 0], [0, 1.0, 0]))
println(normalize([1.0, 2.0], 1), " ", [1.0, 0.0, 0.0] × [0.0, 0.0, 1.0])
println(size(1:3), " ", size(2:2:10, 1), " ", hcat(1:3, 4:6))
stack([[1.0, 2.0], [1.0]])
