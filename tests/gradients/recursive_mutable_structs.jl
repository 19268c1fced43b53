# check: f([1.0, 2.0, 3.0])
# check: h(1.5)
# Values built of mutable structs with fields of their own type.
mutable struct Node
    val::Float64
    next::Union{Node, Nothing}
end
function total(n)
    s = 0.0
    while n !== nothing
        s += n.val * n.val
        n = n.next
    end
    s
end
function build(xs)
    head = nothing
    for x in reverse(xs)
        head = Node(x, head)
    end
    head
end
f(xs) = total(build(xs))
mutable struct Tn
    v::Float64
    kids::Vector{Tn}
end
tsum(t::Tn) = t.v + sum(tsum, t.kids; init = 0.0)
h(x) = tsum(Tn(x, [Tn(2x, Tn[]), Tn(x^2, [Tn(sin(x), Tn[])])]))
