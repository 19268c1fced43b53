# Methods defined later take effect for later calls
f(x) = "generic"
println(f(1))
f(x::Int) = "int"
println(f(1), " ", f(1.0))
f(x::Int) = "int, redefined"
println(f(1))
g() = h()
h() = "h defined after g"
println(g())
