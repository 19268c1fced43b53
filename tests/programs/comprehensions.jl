# Comprehensions and generators (collected through `map`, filtered with `if`).
v = [1.0, 2.0, 3.0]
println([x^2 for x in v])
println([2i for i in 1:4])
println([x for x in v if x > 1.5])
println(sum(x^2 for x in v))
println([i * x for (i, x) in enumerate(v)])
println([a + b for (a, b) in zip([1, 2], [10, 20])])
println(any(x > 2.5 for x in v), " ", all(x > 0 for x in v))
println(maximum(abs(x - 2) for x in v))
function f(v, c)
    [c * x for x in v if x != 2.0]
end
println(f(v, 3.0))
println(collect(1:3), " ", collect(enumerate([5, 6])))
println([x for x in Float64[]])
# Over a range of integers: empty, widened when a later element does not fit the first's type.
println([i for i in 3:2], " ", typeof([sqrt(i) for i in 5:4]))
println([i == 2 ? 1.5 : i for i in 1:3], " ", [i / 2 for i in -1:1])
