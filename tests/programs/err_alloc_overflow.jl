# The product of the dimensions overflows: an error, not an empty array.
A = zeros(2^32, 2^32)
A[1, 2]
