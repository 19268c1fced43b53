# Each call builds a tuple twice as deep as its argument: methods are compiled once for
# argument types nested too deeply to specialise on, so compiling ends, and the run does.
grow(x, n) = n == 0 ? x : grow((x, x), n - 1)
depth(x) = 0
depth(x::Tuple) = 1 + depth(x[1])
println(depth(grow(1, 40)))
