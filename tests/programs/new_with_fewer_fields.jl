# `new` with fewer values than fields: the rest are left undefined (`#undef`) until assigned,
# and `isdefined` tells.
mutable struct Node
    val::Float64
    next::Node
    Node(v) = new(v)
    Node(v, n) = new(v, n)
end
n = Node(1.0)
println(n.val)
println(isdefined(n, :next))
println(isdefined(n, :val))
println(isdefined(n, :nofield))
m = Node(2.0, n)
println(m.next.val)
n.next = m
println(isdefined(n, :next), " ", n.next.val, " ", n.next.next === n)

# A list closed on itself: a sentinel whose `next` is itself.
mutable struct Ring
    label::String
    next::Ring
    function Ring(label)
        r = new(label)
        r.next = r
        r
    end
end
r = Ring("only")
println(r.next.next.label)

# An immutable struct keeps its undefined field for good.
struct Lazy
    a::Float64
    b::Vector{Float64}
    count::Int64
    Lazy(a) = new(a)
    Lazy(a, b) = new(a, b, length(b))
end
total(l::Lazy) = isdefined(l, :b) ? l.a * sum(l.b) : l.a
println(total(Lazy(2.0)), " ", total(Lazy(2.0, [1.0, 2.0])))
println(Lazy(2.0, [1.0, 2.0]).count)

# Walking a list until the first undefined link.
function chain_sum(vals)
    head = Node(vals[1])
    c = head
    for v in vals[2:end]
        nxt = Node(v)
        c.next = nxt
        c = nxt
    end
    s = 0.0
    c = head
    while isdefined(c, :next)
        s += c.val
        c = c.next
    end
    s + c.val
end
println(chain_sum([1.0, 2.0, 3.5]))
