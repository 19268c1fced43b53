# `reverse` along dimensions (all of them by default), with a range of a vector, `reverse!`,
# and `:` as a value (`Colon()`): `dims = :`, `view(A, :, 1)`, calling it through a variable.
A = [1 2 3; 4 5 6]
println(reverse(A), reverse(A; dims = 1), reverse(A; dims = 2), reverse(A, dims = (1, 2)))
v = [1, 2, 3, 4, 5]
println(reverse(v), reverse(v, 2), reverse(v, 2, 4), reverse(v; dims = 1))
reverse!(v)
println(v)
reverse!(v, 1, 2)
println(v)
T = reshape(collect(1:8), 2, 2, 2)
println(reverse(T; dims = 3))
println(reverse(1:4), reverse([1.0, 2.0]; dims = :))
B = [1.0 2.0; 3.0 4.0]
reverse!(B; dims = 2)
println(B)
println(sum(A; dims = :), " ", typeof(:), " ", (:) === Colon(), " ", maximum(A; dims = :))
f = (:)
println(f(1, 3), map(:, [1, 2], [3, 4]), (:)(1, 2, 5))
println(view(A, :, 1), selectdim(A, 2, 1), A[:, 2])
reverse(A; dims = 3)
