# `map` over arrays of one rank above one zips them by their shape: the result has it, and
# shapes that differ are an error; arrays of different ranks zip until one runs out.
A = [1.0 2.0; 3.0 4.0]
println(map(+, A, A))
println(map(x -> 2x, A))
println(map(+, [1 2; 3 4], [1, 2, 3]))
println(map((x, y) -> x * y, [1 2; 3 4], [5 6; 7 8]))
println(map(+, [1, 2, 3], [10, 20]))
T = reshape(collect(1.0:8.0), 2, 2, 2)
println(size(map(-, T, T)))
B = [sin(1.0 * (i + j)) for i in 1:32, j in 1:32]
C = map(x -> x^2, B)
println(typeof(C), " ", size(C), " ", C[3, 5] == B[3, 5]^2)
D = map(*, B, B)
println(size(D), " ", D[7, 9] == B[7, 9]^2)
map(+, A, [1.0 2.0 3.0; 4.0 5.0 6.0])
