# `a, b = x` takes the elements x iterates: tuples, arrays, pairs, named tuples, strings,
# ranges, generators, enumerate/zip elements, and program types that define `Base.iterate`.
struct Trip
    a::Float64
    b::Int64
end
Base.iterate(t::Trip) = (t.a, 2)
Base.iterate(t::Trip, s) = s == 2 ? (t.b, 3) : nothing
x, y = Trip(1.5, 3)
println(x, " ", y, " ", typeof(y))
a, b = "αβγ"
println(a, b)
m, n = 4:10
println(m + n)
g, h = (k^2 for k in 1:3)
println(g, " ", h)
(i, (u, v)), w = zip([1, 2], [(0.5, "p"), (0.25, "q")]), 7
println(w)
for (j, (c, d)) in enumerate(zip("ab", [10, 20]))
    println(j, c, d)
end
p, q = :s => [1, 2]
println(p, q)
e, f = (first = 1, second = "two")
println(e, f)
r, s = [1 2; 3 4]
println(r, s)
a, b = b, a
println(a, b)
function swap_sum(t)
    l, r = t
    r - l
end
println(swap_sum((1, 2.5)), " ", swap_sum([3, 4]), " ", swap_sum(Trip(1.0, 5)))
k, l, o = Trip(1.0, 2)
