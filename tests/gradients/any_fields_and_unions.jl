# Fields and values whose tangent is decided at run time: `Any` fields of mutable and
# immutable structs, `Core.Box` (a captured variable reassigned in a closure), `Union{Nothing,
# T}` fields, and unions whose members carry different reverse data (`Float32`, `Float64`).
# check: boxed([1.0, 2.0, 3.0])
# check: holder([1.5, 2.0])
# check: wrapped([1.5, 2.0])
# check: maybe([1.5, 2.0])
# check: mixed_union([0.5, 1.5, 2.0])
# check: counter_closure(0.7)
# check: field_by_name([1.5, -0.5])
function boxed(v)
    acc = 0.0
    foreach(v) do x
        acc += x^2
    end
    acc
end

mutable struct Holder
    val::Any
end
function holder(x)
    h = Holder(x[1])
    h.val = h.val * x[2]
    h.val + 1.0
end

struct Wrap
    w::Any
end
unwrap(a::Wrap) = a.w
function wrapped(x)
    a = Wrap(x[1] * 2.0)
    unwrap(a) * x[2]
end

struct Maybe
    v::Union{Nothing, Float64}
    w::Float64
end
getv(m::Maybe) = m.v === nothing ? m.w : m.v * m.w
function maybe(x)
    a = Maybe(x[1], 2.0)
    b = Maybe(nothing, x[2])
    getv(a) + getv(b)
end

function mixed_union(x)
    s = 0.0
    for i in eachindex(x)
        y = i == 2 ? Float32(x[i]) : x[i]
        s += y * y
    end
    s
end

# A closure that reassigns its captured variable, called several times.
function counter_closure(a)
    t = a
    bump = () -> (t = t * a + 1.0)
    bump()
    bump()
    t
end

# Fields read by name from values whose type is known only at run time (elements of a
# `Vector{Any}`): an immutable struct's cotangent is built, a mutable struct's tangent is
# incremented in place.
struct P
    x::Float64
    y::Float64
end
mutable struct Q
    x::Float64
end
firstx(v) = v[1].x * 2.0 + v[2].x * v[1].y
function field_by_name(z)
    v = Any[P(z[1], z[2]), Q(z[2] * z[1])]
    firstx(v)
end
