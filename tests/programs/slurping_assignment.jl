# `a, rest... = x`: the last name takes what is left, as Julia's `Base.rest` gives it.
x, ys... = (1, 2, 3)
println(x, " ", ys)
u, vs... = [1.0, 2.0, 3.0]
println(vs)
a, b, cs... = (p = 1, q = 2.0, r = "s", w = 4)
println(cs)
c1, crest... = "héllo"
println(crest, " ", typeof(crest))
m1, mr... = [1 2; 3 4]
println(mr)
e, es... = (1,)
println(es)
for (first, more...) in [(1, 2, 3), (4, 5, 6)]
    println(first, " ", more)
end
const k1, ks... = (1, 2, 3)
println(ks)
p, qs..., r = (1, 2, 3, 4)
