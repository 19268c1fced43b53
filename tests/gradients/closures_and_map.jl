# Closures through reverse mode: the tangent of a closure is the tangent of its captured data.
# check: capture([1.0, 2.0, 3.0])
# check: map_closure([0.5, -1.0, 2.0])
# check: two_vectors([1.0, 2.0], [3.0, -1.5])
# check: map_capture([1.0, 2.0], [3.0, -1.5])
# check: nested(1.5, [0.3, 0.7])
# check: comprehension([1.0, 2.0, 3.0], 0.5)
# check: generator([0.2, 0.4])
# check: returns_closure(2.0)
# check: callable_struct(1.5)
function capture(x)
    a = x[1]
    sum(y -> a * y^2, x)
end
function map_closure(x)
    ys = map(t -> sin(t) * x[1], x)
    sum(ys)
end
function two_vectors(a, b)
    sum(map((s, t) -> s * t + s^2, a, b))
end
# A closure over two vectors mapped over a range of indices.
function map_capture(a, b)
    ys = map(i -> a[i] * b[i] + a[i]^2, 1:length(a))
    sum(ys)
end
function nested(c, v)
    f = t -> t * c
    g = s -> f(s) + c^2
    g(v[2]) + mapreduce(g, +, v)
end
function comprehension(x, c)
    ys = [c * xi^2 for xi in x if xi > 1.5]
    sum(ys)
end
generator(x) = sum(exp(t) * t for t in x)
function returns_closure(a)
    f = adder(a)
    f(3.0) * a
end
adder(a) = b -> a * b + b
struct Scale
    k::Float64
end
(s::Scale)(x) = s.k * x^2
callable_struct(x) = Scale(x)(2.0) + Scale(3.0)(x)
