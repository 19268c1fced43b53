# A keyword the method does not declare is a MethodError at the call.
scaled(x; k = 2.0) = k * x
println(scaled(1.5; k = 3.0))
println(scaled(1.5; kk = 3.0))
