# Adding arrays of different lengths is a DimensionMismatch naming both shapes.
x = [1.0, 2.0]
y = [1.0, 2.0, 3.0]
println(x + y)
