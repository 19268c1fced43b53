# Anonymous functions, closures (captured variables, reassigned ones boxed), `do` blocks and
# callable structs.
function apply(f, x)
    f(x)
end
function scale_all(v, a)
    g = x -> a * x
    s = 0.0
    for x in v
        s += g(x)
    end
    s
end
println(scale_all([1.0, 2.0, 3.0], 2.0))
println(apply(x -> x + 1, 2))
h = y -> y^2
println(h(3.0))
function counter()
    n = 0
    inc = () -> (n += 1)
    inc()
    inc()
    n
end
println(counter())
function adder(a)
    b -> (c -> a + b + c)
end
println(adder(1)(2)(3))
function sumsq(v)
    t = 0.0
    apply(v) do w
        for x in w
            t += x^2
        end
    end
    t
end
println(sumsq([1.0, 2.0]))
function late()
    a = 1.0
    f = x -> a * x
    a = 2.0
    f(1.0)
end
println(late())
function in_loop()
    total = 0
    for i in 1:3
        g = () -> i * 10
        total += g()
    end
    total
end
println(in_loop())
function conv(xs::Vector{T}) where {T}
    map(x -> T(2x), xs)
end
println(conv([1, 2]))
function anon(v)
    sq = function (x)
        y = x * x
        y + 1
    end
    map(sq, v)
end
println(anon([1, 2]))
compose(f, g) = x -> f(g(x))
println(compose(x -> x + 1, x -> 2x)(5))
struct Poly
    a::Float64
end
(p::Poly)(x) = p.a * x
function (p::Poly)(x, y)
    p.a * x + y
end
q = Poly(2.0)
println(q(3.0))
println(q(3.0, 1.0))
v = Any[1, 2.5]
