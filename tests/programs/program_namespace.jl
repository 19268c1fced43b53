# A program's functions live in its own namespace, as in Julia's `Main`: `f(x) = ...` with a
# library function's name makes a new function (the program's calls mean it, the library's
# code never calls it); `Base.f(...) = ...` and `import Base: f` add methods to the library's.
sum(x) = 42
g(v) = sum(v)
println(sum([1, 2]), " ", g([1.0]), " ", sum(x^2 for x in 1:3))
println(sum, " ", typeof(sum))
println(maximum([3, 1, 2]))              # the library's function, untouched

# The library's `sum` is still there as `Base.sum`, and library code keeps using its own.
using Statistics
println(Base.sum([1, 2]), " ", mean([1.0, 2.0]))

struct Bag
    items::Vector{Int}
end
Base.length(b::Bag) = length(b.items)
Base.getindex(b::Bag, i::Int) = b.items[i]
import Base: iterate
iterate(b::Bag, s = 1) = s > length(b) ? nothing : (b[s], s + 1)
println(length(Bag([4, 5, 6])), " ", collect(Bag([4, 5])), " ", [2x for x in Bag([1, 2])])
for x in Bag([7, 8])
    println(x)
end

# A program's own `map` does not change what a comprehension means.
map(f, v) = "own map"
println([x + 1 for x in [1, 2]], " ", map(abs, [-1]))

# An operator of the program's own: its calls, not the library's arithmetic.
import Base: +
+(a::Bag, b::Bag) = Bag(vcat(a.items, b.items))
p = Bag([1]) + Bag([2])
p += Bag([3])
println(p.items, " ", 1 + 2)

# Keyword arguments and several methods of a program's own function.
function cumsum(v::Vector; scale = 1)
    s = 0
    [(s += x; s * scale) for x in v]
end
cumsum(x::Int) = "one"
println(cumsum([1, 2, 3]; scale = 10), " ", cumsum(5))
