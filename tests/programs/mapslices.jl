# mapslices over the columns or rows of a matrix (a copy of each slice; numbers and vectors
# as results), and the whole matrix with dims = (1, 2); tuples and named tuples are
# instances of `Tuple` and `NamedTuple`.
A = [1.0 2.0 3.0; 4.0 5.0 6.0]
println(mapslices(sum, A; dims = 1))
println(mapslices(sum, A; dims = 2))
println(mapslices(x -> x ./ sum(x), A; dims = 1))
println(mapslices(x -> x ./ sum(x), A; dims = 2))
println(mapslices(x -> [minimum(x), maximum(x)], A; dims = 2))
println(mapslices(sum, A; dims = (1, 2)))
println(mapslices(x -> length(x), A; dims = 1))
println((1, 2) isa Tuple, " ", Tuple{Int,Float64} <: Tuple, " ", (a = 1,) isa NamedTuple, " ", [1] isa Tuple)
