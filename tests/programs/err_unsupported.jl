# A construct not supported yet is reported at its location.
println(sqrt.([1.0, 4.0, 9.0]))
first, middle..., last = (1, 2, 3, 4)
