# Mutable structs with fields of their own type: a linked list, a tree with a vector of
# children, a parametric list.
mutable struct Node
    val::Float64
    next::Union{Node, Nothing}
end
function total(n)
    s = 0.0
    while n !== nothing
        s += n.val
        n = n.next
    end
    s
end
list = Node(1.0, Node(2.5, Node(4.0, nothing)))
println(total(list))
println(list.next.val)
list.next.next = nothing
println(total(list))

mutable struct Tn
    v::Float64
    kids::Vector{Tn}
end
tsum(t::Tn) = t.v + sum(tsum, t.kids; init = 0.0)
println(tsum(Tn(1.5, [Tn(3.0, Tn[]), Tn(2.25, [Tn(1.0, Tn[])])])))

mutable struct Link{T}
    v::T
    next::Union{Link{T}, Nothing}
end
len(n::Nothing) = 0
len(n::Link) = 1 + len(n.next)
println(len(Link(1, Link(2, Link(3, nothing)))))
println(typeof(Link(1.0, nothing)))
