# Differences along a dimension, identity matrices, three-argument dot, Kronecker products of
# vectors, and named tuples indexed by a quoted name.
using LinearAlgebra

A = [1.0 2.0 0.5; 0.3 4.0 1.0; 0.2 0.1 3.0]
println(diff(A, dims = 1))
println(diff(A, dims = 2))
println(diff([1, 4, 9]), " ", diff(Float64[]), " ", diff(1:4), " ", diff(0:0.5:2))
println(diff(reshape(1:24, 2, 3, 4), dims = 3))
println(diff([3.0, 1.0], dims = 1))
println(one(A), " ", one([1 2; 3 4]))
x = [1.0, 2.0, 3.0]
y = [0.5, -1.0, 2.0]
println(dot(x, A, y), " ", x' * A * y)
println(dot(A, A), " ", dot(2.0, 3.0), " ", dot([1, 2], [3, 4]))
# A zero entry of y skips its column, so the Inf there does not reach the result.
println(dot([1.0, 1.0], [1.0 Inf; 2.0 3.0], [1.0, 0.0]))
println(kron(x, [1.0, 10.0]), " ", kron([1, 2], [1 2]))
println(UnitRange(Base.OneTo(3)), " ", UnitRange{Int64}(2:4))
nt = (a = 1, b = 2.5)
println(nt[:b], " ", nt[:a])
one([1.0 2.0 3.0])
