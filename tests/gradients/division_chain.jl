# check: f(1.0, 2.0, 3.0)
f(x, y, z) = x / y / z + (x + y) / (y - z)
