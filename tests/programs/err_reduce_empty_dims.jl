# `maximum` over an empty dimension has no value to start from.
A = zeros(0, 2)
println(maximum(A, dims = 1))
