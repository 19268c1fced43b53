# Reductions over dimensions, `init`, Statistics, and comprehensions over two iterators.
using Statistics
A = [1.0 2.0 3.0; 4.0 5.0 6.0]
println(sum(A, dims = 1))
println(sum(A; dims = 2))
println(sum(A, dims = (1, 2)))
println(maximum(A, dims = 1), " ", minimum(A, dims = 2))
println(prod(A, dims = 2))
println(sum(abs2, A; dims = 1))
println(sum(A), " ", sum(A; init = 10.0), " ", maximum(A), " ", prod([1, 2, 3]))
println(mean(A), " ", mean(A, dims = 1), " ", mean(A, dims = 2))
println(mean([1, 2, 3, 4]), " ", mean(x -> x^2, [1.0, 2.0]))
println(var([1.0, 2.0, 4.0]), " ", var([1.0, 2.0, 4.0]; corrected = false), " ", std([1.0, 2.0, 4.0]))
println(var(A; dims = 1), " ", std(A; dims = 2))
x = [3.0, -1.0, 2.0]
println(sum(x, dims = 1), " ", maximum(x; dims = 1))
println(sum([true, false, true], dims = 1))
Z = [1.0 2.0; 3.0 0.5]
e = exp.(Z .- maximum(Z, dims = 1))
println(e ./ sum(e, dims = 1))
println([i * j for i in 1:3, j in 1:2])
println([i + j for i in 1:3, j in 1:3 if i != j])
println(sum(i * j for i in 1:3, j in 1:2))
println(sum(zeros(0, 3), dims = 1), " ", sum(Float64[]; init = 1.5))
println(mean(Float64[]))
println(median([3.0, 1.0, 2.0]), " ", median([4, 1, 3, 2]), " ", median([1.0, NaN, 2.0]), " ", median([0.0, -0.0, 1.0]), " ", median([5]))
println(median([2.0 1.0; 4.0 3.0]), " ", middle(1, 2), " ", middle(3))
x = [9.0, 1.0, 8.0, 2.0, 7.0, 3.0, 6.0, 4.0, 5.0, 5.0, 0.5]
println(median(x), " ", median(x[1:10]), " ", x[1])
