squares = sqrt.([1.0, 4.0, 9.0])
