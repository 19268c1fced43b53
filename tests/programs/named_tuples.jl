nt = (a = 1, b = 2.5, name = "x")
println(nt)
println(nt.a, " ", nt.b, " ", nt.name)
println(typeof((a = 1, b = 2.0)))
params = (lr = 0.1, steps = 3)
function run(p)
    w = 1.0
    for i in 1:p.steps
        w -= p.lr * w
    end
    w
end
println(run(params))
println((x = 1,))

# `(; a, b)` names its fields after the variables; `(; a, b) = x` reads properties by name.
a, b = 1.5, "two"
println((; a, b))
q = (; b, a, n = 3)
println(q)
(; n, a) = q
println(n, " ", a)
mutable struct Counter
    count::Int
    label::String
end
c = Counter(4, "c")
t = ((; count) = c)
println(count, " ", t === c)
function unpack(nt)
    (; lr, steps) = nt
    lr * steps
end
println(unpack((steps = 4, lr = 0.25)))
println((; c.label, c.count))
