# Cartesian indices: iteration, indexing, arithmetic, printing, and the find family on matrices.
A = [1.0 2.0; 3.0 4.0]
s = 0.0
for I in CartesianIndices(A)
    global s += A[I] * I[1]
end
println(s)
println(CartesianIndex(1, 2), " ", A[CartesianIndex(2, 1)], " ", CartesianIndex(3), " ", typeof(CartesianIndex(1, 2)))
C = CartesianIndices((2, 3))
println(C, " ", size(C), " ", length(C), " ", C[2, 3], " ", C[4], " ", typeof(C))
println(CartesianIndices((1:2, 2:3)), " ", collect(CartesianIndices((1:2, 2:3))))
println(findall(A .> 2.0), " ", findall(x -> x > 1.5, [1.0, 2.0, 3.0]))
println(findfirst(A .> 2.0), " ", findlast(x -> x > 2.0, A), " ", findfirst(x -> x > 9, [1, 2]))
println(findmax(A), " ", argmin(A), " ", argmax(abs, [-3.0, 2.0]), " ", findmax(abs, [-3.0, 2.0]))
println(keys(A), " ", A[findall(A .> 2.0)])
B = zeros(2, 2)
B[CartesianIndex(1, 2)] = 5.0
println(B, " ", CartesianIndex(1, 2) + CartesianIndex(1, 1), " ", CartesianIndex(2, 1) < CartesianIndex(1, 2))
println(Tuple(CartesianIndex(4, 5)), " ", length(CartesianIndex(4, 5)), " ", oneunit(CartesianIndex(4, 5)))
W = zeros(2, 2, 2)
for I in CartesianIndices(W)
    W[I] = I[1] + 10 * I[2] + 100 * I[3]
end
println(W[2, 1, 2], " ", argmax(W), " ", findnext([true, false, true], 2), " ", findprev(x -> x > 1, [3, 1, 1], 3))
M = [1.0 5.0 2.0; 3.0 4.0 9.0]
println(findmax(M; dims = 1), " ", argmax(M; dims = 2), " ", findmin(M, dims = 2))
println(findmax(abs, [-1.0 -5.0; 2.0 0.5]; dims = 1), " ", argmin([3.0 1.0; 1.0 0.0]; dims = (1, 2)))
println(findmax([NaN 1.0; 2.0 3.0]; dims = 1), " ", findmax([1.0, 3.0]), " ", argmax([1 7 7]))
for I in CartesianIndex(1, 2)
    println(I)
end
