# `end` and `begin` in an index after a splatted one: the dimension counts the splatted indices.
A = reshape(collect(1:24), 2, 3, 4)
I = (1, 2)
println(A[I..., end], " ", A[I..., begin], " ", A[1, I[2], end - 1])
J = (2,)
println(A[J..., end, end], " ", A[J..., :, end], " ", A[(1, 1, 1)..., ])
B = zeros(2, 3)
B[J..., end] = 7.0
println(B)
v = @view A[I[1], 2:end, J...]
println(v)
x = [1, 2, 3]
println(x[()..., end])
