# check: softmax_loss([1.0 2.0 0.5; 3.0 0.5 1.0])
# check: standardise([1.0, 2.0, 4.0, 3.5])
# check: kernel_sum([0.3, -1.2, 2.0])
# check: row_norms([1.0 2.0; 3.0 -4.0])
# check: helpers([1.0, -0.5, 2.0, 0.25])
# check: robust([1.0, 3.0, 2.5, 5.0, 4.2, 0.3])
# check: spread3([1.0, 4.0, 9.0, 16.0, 25.0, 36.0, 49.0, 64.0])
# check: flipped([1.0 -2.0; 0.5 3.0])
# Reductions over dimensions, Statistics and comprehensions, as models write them.
using Statistics
function softmax_loss(Z)
    e = exp.(Z .- maximum(Z, dims = 1))
    p = e ./ sum(e, dims = 1)
    -sum(log.(p[1, :]))
end
function standardise(x)
    z = (x .- mean(x)) ./ std(x)
    sum(z .^ 3) + var(x; corrected = false)
end
function kernel_sum(x)
    K = [exp(-(a - b)^2 / 2) for a in x, b in x]
    sum(K * x) + sum(abs2, K; dims = 2)[1]
end
row_norms(A) = sum(sqrt.(sum(abs2, A; dims = 2))) + mean(A; dims = 1)[2]
helpers(x) = sum(cumsum(x) .* reverse(x)) + sum(diff(x) .^ 2) + findmax(x)[1] + extrema(x)[1] + cumprod(x)[3]
robust(x) = sum(abs.(x .- median(x))) + median(x .^ 2)
# `var`/`std`/`mean` over a dimension of a three-dimensional array.
spread3(θ) = sum(var(reshape(θ, 2, 2, 2); dims = 3)) + sum(std(reshape(θ, 2, 2, 2); dims = 1)) +
    sum(abs2, mean(reshape(θ, 2, 2, 2); dims = (1, 3)))
# `reverse` along a dimension and of a part of a vector.
flipped(A) = sum(reverse(A; dims = 1) .* [1.0 2.0; 3.0 4.0]) + sum(reverse(vec(A), 2) .* [1.0, 2.0, 3.0, 4.0]) + sum(abs2, reverse(A))
