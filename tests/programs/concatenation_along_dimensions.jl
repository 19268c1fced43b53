# Concatenation along dimensions 2 and up written with `;;`, `;;;` (and the forms Julia prints
# n×1 matrices and arrays of three dimensions in), and typed literals and comprehensions that
# keep their shape.
println([1; 2;; 3; 4])
println([1;; 2])
println([1 2;;; 3 4])
println(size([1 2;;; 3 4]))
println([3.0; 4.0;;])
println(size([1;;;]))
println([1 2; 3 4;;; 5 6; 7 8])
println([1; 2;;; 3; 4])
println(Float64[1; 2;; 3; 4])
x = [1, 2]
println([x;; x], " ", [x; x], " ", [x x])
println(size([1 2;;]), " ", [1; 2; 3;;])
println(Float64[1; 2;; 3; 4])
println(Float64[i * j for i in 1:2, j in 1:3])
println(Int[x for x in 1:3 if isodd(x)])
println(Any[1 for _ in 1:2])
