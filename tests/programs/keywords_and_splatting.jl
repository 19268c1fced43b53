# Keyword arguments (defaults that see earlier parameters, typed and required keywords, mixed
# with default positional arguments and varargs) and splatting tuples and vectors into calls.
f(x; k = 2.0) = x * k
g(x, y = 1.0; a = 3, b = a + x) = x + y + a + b
h(xs...; scale = 1.0) = scale * sum(xs)
function req(x; k)
    x + k
end
t(x; k::Int = 2) = x * k
println(f(3.0; k = 4.0))
println(f(3.0, k = 5.0))
println(f(3.0))
println(g(1.0))
println(g(1.0, 2.0; b = 10.0))
println(g(1.0; a = 1))
println(g(1.0; b = 0, a = 2))
println(h(1.0, 2.0, 3.0; scale = 2.0))
println(h(1, 2))
println(req(1.0; k = 2.0))
k = 7
println(req(1; k))
println(t(2.0; k = 3))
tup = (1.0, 2.0, 3.0)
println(h(tup...))
println(h(0.5, tup...; scale = 3.0))
println(max(tup...))
v = [4.0, 5.0]
println(h(v...))
println(+(v..., 1.0))
pair(a, b) = (b, a)
println(pair((1, "one")...))
println(sum((1, 2, 3)), " ", prod((2.0, 3.0)), " ", maximum((4, 9, 2)), " ", minimum((4, 9, 2)))
