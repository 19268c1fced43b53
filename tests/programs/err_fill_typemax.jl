x = fill(2.5, typemax(Int))
