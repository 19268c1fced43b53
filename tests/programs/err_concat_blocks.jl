# Julia raises the same DimensionMismatch.
x = [[1.0 2.0; 3.0 4.0] [1.0, 2.0]; 1.0 2.0]
