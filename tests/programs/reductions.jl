v = [3.0, 1.0, 2.0]
println(sum(v), " ", prod(v), " ", maximum(v), " ", minimum(v))
println(sum([1, 2, 3]), " ", prod([1, 2, 3, 4]), " ", maximum([1, 5, 3]))
println(sum(Float64[]), " ", sum(Int[]), " ", prod(Float64[]))
println(sum(ones(2, 3)))
println(maximum(1:5), " ", minimum(4:9))
