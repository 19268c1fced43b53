# Tuples and named tuples as collections: `collect` and comprehensions make vectors of the
# elements' join type, `eltype` is that join, named tuples index, iterate and splat by position.
t = (1, 2.0)
println(collect(t), " ", [x for x in t], " ", eltype(t), " ", [2x for x in (1, 2)])
println(collect(()), " ", [x for x in ()], " ", eltype(()), " ", collect((1, "a")))
println(sum(x^2 for x in (1, 2.0)), " ", map(x -> 2x, t), " ", typeof(map(x -> 2x, t)))

p = (a = 1, b = 2.0, c = 3)
println(length(p), " ", p[2], " ", keys(p), " ", values(p), " ", Tuple(p), " ", first(p))
println(haskey(p, :b), " ", haskey(p, :d), " ", sum(p), " ", maximum(p), " ", collect(p))
for v in p
    print(v, " ")
end
println()
f(a, b, c) = a + b * c
println(f(p...), " ", [v / 2 for v in p], " ", eltype(p), " ", isempty(p))

Base.@kwdef struct Settings
    rate::Float64 = 0.1
    steps::Int = 10
    name = "run"
end
println(Settings(), " ", Settings(steps = 3, rate = 1), " ", Settings(name = "b").name)
@kwdef mutable struct Counter
    n::Int = 0
    limit::Int
end
c = Counter(limit = 5)
c.n += 2
println(c.n, " ", c.limit)
Counter()
