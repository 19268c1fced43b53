# check: col_energy([1.0 -2.0 3.0; 4.0 0.5 -1.5])
# check: running([0.3 1.2; -0.7 2.0; 1.1 0.4])
# mapreduce over a dimension and running sums along rows and columns.
col_energy(A) = sum(mapreduce(abs2, +, A; dims = 1)) + sum(reduce(max, A; dims = 2))
running(A) = sum(cumsum(A; dims = 1) .* cumsum(A; dims = 2)) + sum(cumprod(A; dims = 1))
