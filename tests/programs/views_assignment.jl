# Views as indices and as values assigned into the array they view (read before the write).
xi = [1.0, 2.0, 3.0]
yi = [3, 1, 2]
w = xi[view(yi, 2:3)]
println(w)
xi[1:2] = view(xi, 2:3)
println(xi)
A = zeros(2, 2)
A[:, 1] = view(xi, 1:2)
println(A)
xi[view(yi, 1:1)] = [7.0]
println(xi)
x = [1.0, 2.0, 3.0]
x[2:3] = view(x, 1:2)
println(x)
z = [1.0, 2.0, 3.0]
z[[3, 2, 1]] = z
println(z)
A2 = [1.0 2.0; 3.0 4.0]
A2[:, 2] = view(A2, :, 1)
println(A2)
A2[1, :] = A2[2, :]
println(A2)
println(@views xi[yi[1:2]])
