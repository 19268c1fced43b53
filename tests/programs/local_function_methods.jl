# Local named functions with several methods and default arguments: the methods of one name
# in a block are methods of one closure type, defaults read captured variables, a method may
# call another (also recursively) and assign a captured variable.
function model(x)
    k = 2.0
    scale(v, s = k) = v * s
    scale(x) + scale(x, 3.0)
end
println(model(1.5))
function two(x)
    h(a::Int) = a + 1
    h(a::Float64) = 2a
    h(1) + h(x)
end
println(two(0.25))
function counter(n)
    c = 0
    bump(d) = (c += d)
    bump() = bump(1)
    for i in 1:n
        bump()
    end
    bump(10)
    c
end
println(counter(3))
function rec(n)
    fib(k::Int) = k <= 1 ? k : fib(k - 1) + fib(k - 2)
    fib(k::Float64) = fib(Int(k))
    fib(n) + fib(Float64(n))
end
println(rec(10))
function nested(x)
    outer(y) = begin
        inner(z) = z * y
        inner(z, w) = z * w + y
        inner(x) + inner(x, 2.0)
    end
    outer(3.0)
end
println(nested(2.0))
# A callable object's default arguments may read the object.
struct P
    scale::Float64
end
(p::P)(x, s = p.scale) = x * s
println(P(2.0)(3.0), " ", P(2.0)(3.0, 1.0))
