mutable struct Particle
    pos::Float64
    vel::Float64
end
p = Particle(0.0, 1.0)
for step in 1:3
    p.pos += p.vel
    p.vel *= 0.5
end
println(p.pos, " ", p.vel)
q = p
q.pos = 100
println(p.pos)
r = Particle(100.0, 0.125)
println(p === q, " ", p === r)
mutable struct Node
    value::Int
    count::Int
end
function tally(ns, k)
    for n in ns
        if n.value == k
            n.count += 1
        end
    end
end
a = [Node(1, 0), Node(2, 0)]
tally(a, 2)
tally(a, 2)
println(a[2].count, " ", a[1].count)
println(a[1])
p.vel = 3
println(p.vel, " ", typeof(p.vel))
