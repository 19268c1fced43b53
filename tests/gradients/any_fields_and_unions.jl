# Fields and values whose tangent is decided at run time: `Any` fields of mutable and
# immutable structs, `Core.Box` (a captured variable reassigned in a closure), `Union{Nothing,
# T}` fields, and unions whose members carry different reverse data (`Float32`, `Float64`).
# check: boxed([1.0, 2.0, 3.0])
# check: holder([1.5, 2.0])
# check: wrapped([1.5, 2.0])
# check: maybe([1.5, 2.0])
# check: mixed_union([0.5, 1.5, 2.0])
# check: counter_closure(0.7)
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
