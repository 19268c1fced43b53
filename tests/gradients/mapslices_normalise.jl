# check: normalised_columns([1.0 2.0 0.5; 0.3 1.5 2.5])
# check: row_ranges([1.0 2.0 0.5; 0.3 1.5 2.5])
# mapslices in a loss: columns normalised to sum one, and rows' extremes.
normalised_columns(A) = sum(abs2, mapslices(c -> c ./ sum(c), A; dims = 1))
row_ranges(A) = sum(mapslices(r -> [maximum(r) - minimum(r), sum(r .^ 2)], A; dims = 2))
