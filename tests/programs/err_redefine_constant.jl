area(r) = 3.14 * r^2
println(area(1.0))
area = 2.0
