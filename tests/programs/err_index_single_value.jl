x = zeros(3); x[1:2] = 5.0
