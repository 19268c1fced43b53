# Broadcasting into indexed places writes into the array (Julia's dotview), and assignment
# through slices, vectors of indices and masks selects the places written.
x = [1.0, 2.0]
v = zeros(3)
v[1:2] .= x
println(v)
v[2:end] .= 0
println(v)
v[[1, 3]] .+= 10.0
println(v)
A = zeros(2, 3)
A[:, 2] .= x
println(A)
A[1, :] .+= 1.0
println(A)
y = [1.0, 2.0, 3.0]
@. y[2:3] = y[2:3] * 2 + 1
println(y)
vs = [[1.0, 2.0], [3.0]]
vs[1] .= 7.0
vs[2] .+= 1.0
println(vs)
r = (v[1:2] .= [4.0, 5.0])
A = [1.0 2.0 3.0; 4.0 5.0 6.0]
println(A[:, 2])
println(A[2, :])
println(A[1:2, [1, 3]])
println(A[[2, 1], 2:3])
x = [10.0, 20.0, 30.0, 40.0]
println(x[[2, 1]])
println(x[x .> 15.0])
A[1, :] = [7.0, 8.0, 9.0]
println(A)
A[:, 3] = [0.5, 0.25]
println(A)
x[[1, 3]] = [-1.0, -3.0]
println(x)
x[2:3] = [2.0, 3.0]
println(x)
B = zeros(2, 2)
B[:, :] = [1.0 2.0; 3.0 4.0]
println(B)
v = Vector{Float64}[[1.0], [2.0]]
v[1] = [5.0]
println(v)
