# Construction with tuple dimensions, running sums, differences, extremes and their positions.
println(fill(2.0, (2, 3)), " ", zeros((2,)), " ", ones(Int64, 2), " ", zeros(Float32, (1, 2)))
println(cumsum([1.0, 2.0, 3.0]), " ", cumprod([1, 2, 3]), " ", cumsum(Float64[]))
println(argmax([1.0, 3.0, 2.0]), " ", argmin([1.0, 3.0, -2.0]), " ", findmax([1.0, 3.0, 3.0]), " ", findmin([4, 2, 8]))
println(findmax([1.0, NaN, 2.0]), " ", findmin([2.0, -0.0, 0.0]), " ", findmin([1.0, NaN]))
println(extrema([3.0, -1.0, 2.0]), " ", extrema([1, 5, 3]))
println(reverse([1, 2, 3]), " ", diff([1.0, 4.0, 9.0]), " ", diff([5]))
println(zero([1.0, 2.0]), " ", zero([1 2; 3 4]))
