# Second derivatives through matrix products of Float64 matrices and vectors, plain and
# transposed (the optimised product kernel and its rules).
# hessian: quadratic_forms([0.5, -1.0, 2.0])
# hessian: gram([0.5, -1.0, 2.0, 0.3, 0.1, -0.7])
# hessian: layer([0.2, -0.4, 0.9, 0.1])
const M = [1.0 2.0 3.0; 4.0 5.0 -6.0]
quadratic_forms(x) = sum(abs2, M * x) + x' * (M' * M) * x + sum(sin.(reshape(x, 3, 1) * reshape(x, 1, 3)))
function gram(x)
    W = reshape(x, 2, 3)
    sum(abs2, W * W') + sum(tanh.(W' * W)) + sum(transpose(W) * M)
end
function layer(w)
    W = reshape(w, 2, 2)
    X = [1.0 -0.5 2.0; 0.3 0.8 -1.2]
    H = tanh.(W * X)
    sum(abs2, W' * H)
end
