# A parameter typed by a union with an abstract member, or of more than four types, or
# through an alias of a union, accepts exactly its members.
f(x::Union{Number,String}) = "number or string"
f(x) = "other"
println(f([1]), ", ", f(1.0), ", ", f("a"), ", ", f(:s))
g(x::Union{Int64,Float64,Float32,Bool,String,Symbol}) = "listed"
g(x) = "other"
println(g([1]), ", ", g(1), ", ", g(:a), ", ", g(nothing))
const Textual = Union{String,Symbol}
h(x::Union{Integer,Textual}) = "integer or text"
h(x) = "other"
println(h(3), ", ", h(:q), ", ", h(2.5), ", ", h("s"))
k(x::Union{AbstractVector,AbstractString}) = length(x)
k(x) = -1
println(k([1, 2, 3]), ", ", k("ab"), ", ", k(1.0))
# `isa` of such a union, and fields declared with one.
println(1 isa Union{Number,String}, " ", [1] isa Union{Number,String}, " ", isa("a", Union{Number,String}), " ", 2 isa Union{Float64,Nothing})
struct Labelled
    x::Union{Number,String}
end
println(Labelled(1), " ", Labelled("a"))
mutable struct Link
    v::Float64
    next::Union{Link,Nothing}
end
chain = Link(1.0, Link(2, nothing))
println(chain.next.v, " ", chain.next.next === nothing)
struct Maybe
    a::Union{Float64,Nothing}
end
println(Maybe(1), " ", Maybe(nothing), " ", Maybe(2.5))
