# Julia raises the same DimensionMismatch.
x = [1 2; 3]
