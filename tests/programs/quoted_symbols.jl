# Quoted symbols: values of type Symbol, compared by name, printed as Julia prints them, and
# used to name fields and options.
s = :alpha
println(s, " ", typeof(s), " ", s === :alpha, " ", s == :beta, " ", :a != :b)
show(s)
println()
println((:a, :b), " ", [:x, :y], " ", repr(:abc), " ", "symbol $(s)")
println(Symbol("beta"), " ", Symbol("a", 1, :b), " ", string(:gamma), " ", String(:delta))
show(Symbol("two words"))
println()
mode(m::Symbol) = m === :fast ? 1 : m === :slow ? 2 : 0
println(mode(:fast), " ", mode(:slow), " ", mode(:other))
struct Tagged{T}
    tag::Symbol
    value::T
end
t = Tagged(:weight, 2.5)
println(t, " ", t.tag, " ", getfield(t, :value), " ", getfield(t, 1))
mutable struct Counter
    n::Int
    label::Symbol
end
c = Counter(0, :hits)
setfield!(c, :n, 5)
setproperty!(c, :label, :misses)
println(getproperty(c, :n), " ", c.label, " ", c)
nt = (a = 1, b = 2.0)
println(getfield(nt, :b), " ", getproperty(nt, :a))
struct Unit{name} end
unitname(::Unit{name}) where {name} = name
println(Unit{:meter}(), " ", typeof(Unit{:meter}()), " ", unitname(Unit{:second}()))
scale(::Unit{:km}) = 1000.0
scale(::Unit{:m}) = 1.0
println(scale(Unit{:km}()), " ", scale(Unit{:m}()))
pick(::Val{:first}) = "first"
pick(::Val{:second}) = "second"
plus_one(::Val{n}) where {n} = n + 1
println(pick(Val{:second}()), " ", plus_one(Val{3}()), " ", typeof(Val{:first}()), " ", Val{true}())
println(fieldnames(Tagged{Float64}), " ", fieldcount(Counter), " ", hasfield(Counter, :n), " ", hasfield(Counter, :z))
println(propertynames(t), " ", hasproperty(nt, :b), " ", hasproperty(nt, :c), " ", fieldnames(typeof(nt)))
for f in fieldnames(Counter)
    println(f, " = ", f === :n ? c.n : c.label)
end
