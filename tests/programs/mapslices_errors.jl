# mapslices: a dimension past the matrix's is an ArgumentError, as in Julia.
A = [1.0 2.0; 3.0 4.0]
println(mapslices(sum, A; dims = 1))
mapslices(sum, A; dims = 3)
