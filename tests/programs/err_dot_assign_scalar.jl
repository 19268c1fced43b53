# `x[i] .= v` with one number per dimension selects the element itself (as Julia's dotview):
# a number cannot be broadcast into; `x[i] = v` assigns it.
x = zeros(3)
x[2] = 5.0
println(x)
x[2] .= 7.0
