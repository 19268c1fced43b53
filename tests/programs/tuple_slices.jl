# Tuples indexed with ranges, index vectors and masks give tuples (`args[2:end]`).
t = (1, 2.5, "a", 4)
println(t[2:end], " ", t[[1, 3]], " ", t[1:0], " ", t[[true, false, true, false]])
f(args...) = args[2:end]
println(f(1, 2, 3), " ", typeof(f(1.0, 2.0)))
g(xs) = sum(xs[2:end])
println(g((1.0, 2.0, 3.0)))
t[3:5]
