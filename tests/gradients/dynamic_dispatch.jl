# Dynamic dispatch through reverse mode: calls whose method is chosen at run time run the
# rule of that method (derived on first use, cached), recorded per execution so that each
# pullback matches its forwards pass; values of type `Any` carry fdata and rdata decided at
# run time.
# check: anyloop([1.0, 2.0])
# check: shapes_total([1.0, 2.0, 0.5])
# check: shapes_sum([0.75, 1.25])
# check: funcs([0.5, 2.0])
# check: narrowing([1.5, 2.0])
# check: pushany([1.5, 2.0])
# check: dispatch_in_callee([0.3, -0.4, 1.1])
abstract type Shape end
struct Circle <: Shape
    r::Float64
end
struct Rect <: Shape
    w::Float64
    h::Float64
end
area(c::Circle) = 3.0 * c.r^2
area(r::Rect) = r.w * r.h

# A loop over a `Vector{Any}` dispatching to a method on a float (a primitive inside) and to
# one on a struct.
g(x::Float64) = sin(x)
g(p::Circle) = p.r * 2.0
function anyloop(x)
    xs = Any[x[1], 2.0, x[2], Circle(x[1])]
    s = 0.0
    for v in xs
        s += g(v)
    end
    s
end

# A sum over an abstract-type hierarchy.
function shapes_total(v)
    shapes = Shape[Circle(v[1]), Rect(v[2], v[3]), Circle(v[3])]
    s = 0.0
    for sh in shapes
        s += area(sh)
    end
    s
end
shapes_sum(v) = sum(area, Shape[Rect(v[1], v[2]), Circle(v[2])])

# Functions (a closure capturing the argument among them) in a `Vector{Any}`.
function funcs(x)
    fs = Any[t -> t^2, sin, t -> x[2] * t]
    s = 0.0
    for f in fs
        s += f(x[1])
    end
    s
end

# Narrowing after `isa`.
function narrowing(x)
    vals = Any[x[1], 3, x[2]]
    s = 0.0
    for v in vals
        if v isa Float64
            s += v^2
        else
            s += v
        end
    end
    s
end

function pushany(x)
    v = Any[]
    push!(v, x[1])
    push!(v, x[2] * 3.0)
    p = pop!(v)
    p + v[1]^2
end

# The dynamic call happens inside a callee's rule.
function weigh(items)
    s = 0.0
    for it in items
        s += area(it)
    end
    s
end
dispatch_in_callee(v) = weigh(Shape[Circle(v[1]), Rect(v[2], v[3])]) * v[1]
