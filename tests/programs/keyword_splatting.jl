# Keyword arguments collected with `kws...` and passed on with `; kws...`, merged in order
# with named keywords and splatted named tuples.
g(x; scale = 1.0, shift = 0.0) = scale * x + shift
f(x; kws...) = g(x; kws...)
h(x) = f(x; scale = 2.0)
println(f(1.0), " ", f(1.0; shift = 3.0), " ", h(2.0))
function show_kws(; a = 1, kws...)
    println(a, " ", kws, " ", length(kws), " ", isempty(kws))
    for (k, v) in kws
        println(k, " => ", v)
    end
end
show_kws()
show_kws(a = 2, b = 3, c = "x")
show_kws(b = 1.5)
nt = (shift = 1.0, scale = 3.0)
# A later keyword replaces an earlier one of the same name.
println(g(2.0; nt...), " ", g(2.0; nt..., shift = 0.0), " ", g(2.0; shift = 5.0, nt...))
# Passing no keywords on to a function without keyword parameters is a plain call.
p(x) = 2x
wrap(x; kws...) = p(x; kws...)
println(wrap(3))
struct Layer
    w::Float64
end
(l::Layer)(x; kws...) = g(l.w * x; kws...)
opts(; kws...) = NamedTuple(kws)
println(Layer(2.0)(1.0; shift = 1.0), " ", opts(a = 1, b = 2), " ", values(pairs((c = 3,))))
scaled(x; kws...) = haskey(kws, :scale) ? kws[:scale] * x : x
println(scaled(2.0), " ", scaled(2.0; scale = 3.0), " ", keys(pairs((u = 1, v = 2))))
println(pairs([1.0, 2.0]), " ", typeof(pairs([1.0, 2.0])))
function outer(x)
    inner(y; kws...) = g(y; kws...)
    inner(x; scale = 3.0) + inner(x)
end
println(outer(2.0))
# Named tuples whose types are known only when the code runs merge then.
for o in Any[(scale = 2.0,), (shift = 1.0, scale = 3.0)]
    println(g(1.0; o..., shift = 0.5), " ", f(2.0; o...))
end
println(f(1.0; bad = 2))
