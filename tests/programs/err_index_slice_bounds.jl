A = zeros(2, 3); println(A[:, 5])
