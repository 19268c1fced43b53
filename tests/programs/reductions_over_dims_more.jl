# mapreduce/reduce/any/all over dimensions, cumsum/cumprod along a dimension.
A = [1.0 -2.0 3.0; 4.0 5.0 -6.0]
println(mapreduce(abs2, +, A; dims = 1), " ", mapreduce(abs, max, A; dims = 2), " ", mapreduce(abs2, +, A))
println(reduce(+, A; dims = 2), " ", reduce(max, A; dims = 1), " ", reduce(*, A), " ", mapreduce(x -> 2x, +, A; init = 0.5))
println(any(A .> 4; dims = 1), " ", all(A .> -3; dims = 2), " ", any(x -> x > 4, A; dims = 2), " ", all(x -> x < 9, A))
println(any([false, true]), " ", all([true, false]), " ", any(x -> x > 5, [1, 7]))
println(cumsum(A; dims = 1), " ", cumsum(A; dims = 2), " ", cumprod([1 2; 3 4]; dims = 1))
println(cumsum([1, 2, 3]; dims = 1), " ", cumsum([1, 2, 3]; dims = 2), " ", cumsum([1.5, 2.5]))
println(reduce(|, [false, true]), reduce(&, [true, false]), map(\, [2.0], [4.0]), reduce(⊻, [1, 2, 4]), (|)(true, false))
