# Comprehensions over three iterators (a three-dimensional array) and nested `for` clauses
# (flattened, with a condition after any clause).
println([x * y for x in 1:2 for y in 1:3])
println([(x, y) for x in 1:3 for y in x:3])
println([x + y for x in 1:3 if isodd(x) for y in 1:2 if y != x])
println(sum(x * y for x in 1:3 for y in 1:x))
println([i + 10j + 100k for i in 1:2, j in 1:2, k in 1:2])
println([i * j * k for i in 1:2, j in 1:3, k in 1:2 if i + j + k > 5])
println(size([0.0 for i in 1:2, j in 1:3, k in 1:4]))
println([y for x in [[1, 2], [3]] for y in x])
println([x for x in 1:0 for y in 1:2])
