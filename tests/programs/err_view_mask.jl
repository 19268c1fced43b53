# Views with a logical mask are not supported yet (indexing with the mask copies).
x = [1.0, -2.0, 3.0]
p = view(x, x .> 0)
