x = zeros(3)
Threads.@threads x[1] = 1.0
