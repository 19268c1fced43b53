# Folds from the left and the right, with and without `init`, and running folds (`accumulate`).
println(foldl(-, [1.0, 2.0, 3.0]), " ", foldr(-, [1.0, 2.0, 3.0]), " ", foldl(-, [1, 2]; init = 10), " ", foldr(-, [1, 2]; init = 10), " ", mapfoldl(abs, -, [1.0, -2.0]), " ", mapfoldr(abs, -, [1.0, -2.0, 4.0]))
println(accumulate(+, [1, 2, 3]), " ", accumulate(*, [1.0, 2.0, 3.0]), " ", accumulate(max, [1.0, 3.0, 2.0]), " ", accumulate(+, [1, 2]; init = 0.5), " ", accumulate(+, Bool[1, 0, 1]))
println(accumulate(-, Float64[]), " ", foldl((a, b) -> 2a + b, 1:4), " ", foldr((a, b) -> a - 2b, 1:3; init = 0))
