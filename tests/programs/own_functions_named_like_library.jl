# A program's own functions named like library ones (without `using LinearAlgebra` they are new
# functions in Julia) are the ones called.
normalize(x) = x ./ 2
stack(x) = sum(x)
cross(a, b) = a .* b
println(normalize([2.0, 4.0]), " ", stack([1.0, 2.0]), " ", cross([1.0, 2.0, 3.0], [2.0, 2.0, 2.0]))
circshift(v, k) = "own circshift"
insert!(v, i, x) = "own insert!"
println(circshift([1, 2], 1), " ", insert!([1], 1, 2))
