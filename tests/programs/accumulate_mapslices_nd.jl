# Running folds and mapslices along any dimension of arrays of three dimensions.
println(accumulate(+, [1, 2, 3]))
println(accumulate(max, [1.0, 3.0, 2.0]))
A = reshape(collect(1.0:8.0), 2, 2, 2)
println(cumsum(A, dims = 3))
println(mapslices(sum, [1 2; 3 4], dims = 1))
println(mapslices(sum, A, dims = 1))
println(mapslices(x -> x ./ sum(x), A, dims = 3))
println(mapslices(x -> [minimum(x), maximum(x)], A, dims = 2))
