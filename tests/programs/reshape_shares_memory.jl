# reshape and vec share their array's memory, as in Julia: a write through one is seen
# through the other; copy makes an independent array.
y = zeros(4)
r = reshape(y, 2, 2)
r[1] = 5.0
println(y[1])
r[2, 2] = 7.0
println(y)
v = vec(r)
v[2] = 3.0
println(r)
println(y)
println(vec(y) === y)
println(reshape(y, 4) === y)
A = [1.0 2.0; 3.0 4.0]
B = reshape(A, 4)
B[4] = 40.0
println(A)
C = copy(B)
C[1] = -1.0
println(A[1])
