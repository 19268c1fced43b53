# check: f(1.0) => 1.682941969615793
# check: g([1.0, 2.0, 3.0]) => 4.666666666666667
# check: h(0.5, 2.0)
# Fields of abstract type (`x::Real`) are assigned values whose type is known only at run
# time: `convert(Real, v)` runs first, as Julia's `setproperty!`.
mutable struct Foo
    x::Real
end
function f(a)
    foo = Foo(a)
    foo.x = sin(foo.x)
    foo.x * 2.0
end
mutable struct Acc
    total::Real
    n::Int
end
function g(xs)
    acc = Acc(0.0, 0)
    for x in xs
        acc.total = acc.total + x^2
        acc.n += 1
    end
    acc.total / acc.n
end
mutable struct Param
    value::Any
end
function h(a, b)
    p = Param(a)
    for k in 1:3
        p.value = p.value * b + (k == 2 ? 1 : 0.5)
    end
    p.value
end
