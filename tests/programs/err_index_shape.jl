A = zeros(2, 2); A[1:2, 1:2] = ones(3, 3)
