# hessian: f([1.5, -0.5])
# hessian: linked([1.0, 2.0, 3.0])
# Second derivatives through mutable structs holding immutable structs, a `Ref` of a tuple,
# and a linked list of `Union{Node, Nothing}` fields.
struct P
    a::Float64
    b::Float64
end
mutable struct M
    p::P
end
function f(x)
    m = M(P(x[1], x[2]^2))
    m.p = P(m.p.a * m.p.b, sin(x[1]))
    r = Ref((m.p.a, x[2]))
    m.p.a * m.p.b + r[][1] * r[][2]
end
mutable struct Node
    val::Float64
    next::Union{Node,Nothing}
end
function linked(xs)
    head = nothing
    for x in reverse(xs)
        head = Node(x * x, head)
    end
    s = 0.0
    n = head
    while n !== nothing
        s += n.val * n.val
        n = n.next
    end
    s
end
