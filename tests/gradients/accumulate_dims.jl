# check: running_products([0.5 1.2 0.8; 1.1 0.9 1.3])
# Running products along the rows of a matrix, from an initial value, in a loss.
running_products(A) = sum(accumulate(*, A; dims = 2, init = 1.5)) + sum(abs2, accumulate(+, A; dims = 1))
