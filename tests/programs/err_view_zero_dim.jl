# Zero-dimensional views (every index a number) are not supported yet.
x = [1.0, 2.0]
r = @view x[1]
