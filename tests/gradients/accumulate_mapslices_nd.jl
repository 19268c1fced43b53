# check: loss([0.5, -1.0, 2.0, 0.3, 1.5, -0.7, 0.9, 1.1])
# Running sums and slice maps of a three-dimensional array, differentiated.
function loss(x)
    A = reshape(x, 2, 2, 2)
    C = cumsum(A, dims = 3)
    S = mapslices(v -> sum(v .^ 2), A, dims = 2)
    sum(C .* C) + sum(S) + sum(accumulate(*, A, dims = 1))
end
