# Rational numbers are not supported yet: an error at the construct.
x = 3 // 4
println(x)
