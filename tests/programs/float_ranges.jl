# Float ranges as Julia builds them: twice-precision reference and step, so that simple
# fractions come out exactly; `range` in all its forms; `LinRange` interpolation.
r = 0:0.1:1
println(r, " ", length(r), " ", typeof(r))
println(collect(r))
println((0.1:0.1:0.3)[3] == 0.3, " ", collect(0.1:0.1:0.3))
println(r[4], " ", first(r), " ", last(r), " ", step(r), " ", sum(r))
println(collect(1.0:-0.25:0.0), " ", 1.0:3.0, " ", collect(1:0.5:3), " ", 0.0:2)
println(1.0:0.5:0.0, " ", isempty(1.0:0.5:0.0), " ", length(0.0:0.3:1.0), " ", last(0.0:0.3:1.0))
println(step(2.5:0.3:10.9), " ", step(range(2.5, stop = 10.9, length = 85)))

println(range(1, 10, length = 101), " ", range(1, 3.5, step = 2), " ", range(stop = 10, length = 5))
println(range(1, step = 5, length = 100), " ", range(1, 100, step = 5), " ", range(1, length = 3))
println(range(0, 1, length = 5), " ", collect(range(0, 1, length = 5)))
println(collect(range(-0.1, 0.3, length = 5)))
println(collect(LinRange(-0.1, 0.3, 5)), " ", LinRange(0, 1, 3), " ", typeof(LinRange(0, 1, 3)))
println(range(0, 1.0, length = 3), " ", range(0.0, step = 0.1, length = 4), " ", range(1, 2, 3))

# Iteration, comprehensions, elementwise functions and reductions read the elements.
s = 0.0
for t in 0:0.25:1
    global s += t
end
println(s, " ", [x^2 for x in 0:0.5:1], " ", sin.(0:0.5:1), " ", maximum(0:0.1:1))
println(sum(0.1:0.1:1.0), " ", 0.1:0.2:0.9 == 0.1:0.2:0.9)

# Keyword methods of one function with different positional arguments stay apart.
g(a; b = 1, c = 2) = (1, a, b, c)
g(a, x; b = 1, c = 2) = (2, a, x, b, c)
g(; a = 0, b = 1, c = 2) = (0, a, b, c)
println(g(10; c = 5), " ", g(10, 20; b = 7), " ", g(; a = 3), " ", g(4))
