s = "hello"
t = s * ", " * "world"
println(t)
println(length(t))
println(string(1, "+", 2.0, "=", 3.0))
n = 3
println("n squared is $(n^2); n is $n")
println("nested: $("inner $(n + 1)")")
println(repr("a\nb"))
println("unicode: π ≈ $(round(pi))")
println("a" == "a", " ", "a" == "b")
