area(r::Float64) = pi * r^2
area(w::Float64, h::Float64) = w * h
println(area(1.0), " ", area(2.0, 3.0))
println(area(2.0, 3))
