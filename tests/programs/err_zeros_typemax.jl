x = zeros(typemax(Int))
