# check: products(A0(), B0(), x0())
# check: transposed(A0(), B0())
# check: same_operand(A0())
# check: mlp_layer(W1(), b1(), X0())
# check: single_precision(Float32.(A0()), Float32.(x0()))
# check: agrees_with_element_loops(A0(), B0(), x0())
# check: in_place(A0(), B0())
# Matrix products of Float64 and Float32 matrices and vectors, plain and transposed, run on the
# optimised product kernel with matrix-level rules; the same products of views are computed
# from the elements by the generic methods, and both give the same values and gradients.
using LinearAlgebra
A0() = [1.0 2.0 3.0; 4.0 5.0 -6.0]
B0() = [1.0 0.5; -1.0 2.0; 0.25 3.0]
x0() = [0.3, -1.2, 0.8]
W1() = [0.1 -0.2 0.3; 0.4 0.5 -0.6]
b1() = [0.05, -0.1]
X0() = [1.0 0.5 -0.5 2.0; -1.0 0.2 0.3 0.0; 0.7 -0.4 1.1 0.9]
products(A, B, x) = sum(abs2, A * B) + sum(A * x) * sum(B' * x) + x' * (B * B') * x
transposed(A, B) = sum(sin.(A' * B')) + sum(abs2, B' * A') + sum(transpose(A) * transpose(B)) + sum(A * transpose(A))
same_operand(A) = sum(abs2, A * A') + sum(cos.(A' * A))
mlp_layer(W, b, X) = sum(abs2, tanh.(W * X .+ b))
single_precision(A, x) = sum(abs2, A * x) + sum(A' * A)
function agrees_with_element_loops(A, B, x)
    kernel = sum(abs2, A * B) + sum(A * x)
    loops = sum(abs2, view(A, :, :) * B) + sum(view(A, :, :) * x)
    kernel - 2loops + sum(exp.(A' * view(A, :, 1:2)))
end
function in_place(A, B)
    C = zeros(2, 2)
    mul!(C, A, B)
    D = similar(C)
    mul!(D, C, C', 2.0, 0.0)
    sum(abs2, D)
end
