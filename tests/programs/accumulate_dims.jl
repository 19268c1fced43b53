# accumulate along a dimension of a matrix (with init), and of a vector.
A = [1.0 2.0 3.0; 4.0 5.0 6.0]
println(accumulate(+, A; dims = 1))
println(accumulate(+, A; dims = 2))
println(accumulate(*, A; dims = 2, init = 2.0))
println(accumulate(max, [3 1 4; 1 5 9]; dims = 2))
println(accumulate(+, A; dims = 3))
println(accumulate(+, [1.0, 2.0, 3.0]; dims = 1), " ", accumulate(+, [1.0, 2.0, 3.0]; dims = 2))
println(accumulate(+, A; dims = 1) == cumsum(A; dims = 1))
