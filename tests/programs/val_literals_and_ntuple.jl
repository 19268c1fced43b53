# `Val(x)` with a literal integer, Bool or symbol is `Val{x}()`; `ntuple` builds tuples
# from a function of the index.
greet(::Val{:en}) = "Hello"
greet(::Val{:fr}) = "Bonjour"
println(greet(Val(:en)), " / ", greet(Val(:fr)))

plus_one(::Val{N}) where {N} = N + 1
println(plus_one(Val(3)))
println(Val(true), " ", typeof(Val(:x)), " ", Val(2) === Val{2}())

println(ntuple(i -> i^2, Val(3)))
println(ntuple(i -> 2.0i, 4))
println(ntuple(identity, 0))
squares(x) = sum(ntuple(i -> x[i]^2, 3))
println(squares([1.0, 2.0, 3.0]))
ntuple(identity, -1)
