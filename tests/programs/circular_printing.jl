# Containers that contain themselves print as Julia prints them.
v = Any[]
push!(v, v)
println(v)
w = Any[1, 2]
push!(w, w)
println(w)
mutable struct Node
    next
end
n = Node(nothing)
n.next = n
println(n)
struct Box2
    x
end
u = Any[]
push!(u, Box2(u))
println(u)
m = Matrix{Any}(undef, 1, 1)
m[1, 1] = m
println(m)
println((v, 1))
