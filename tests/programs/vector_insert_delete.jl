# `∉`, `first`/`last` of n elements, `circshift`, `insert!`, `deleteat!`, `pushfirst!`, `popfirst!`.
x = [3, 1, 2]
println(5 ∉ x, " ", 1 ∉ x, " ", first(x, 2), " ", last(x, 2), " ", first(x, 9), " ", last(x, 0))
println(circshift(x, 1), " ", circshift(x, -1), " ", circshift(Int[], 2), " ", insert!(copy(x), 2, 9), " ", insert!(copy(x), 4, 9))
println(deleteat!(copy(x), 1), " ", deleteat!(copy(x), 2:3), " ", pushfirst!(copy(x), 0), " ", popfirst!(copy(x)))
v = [1.0, 2.0]
pushfirst!(v, 0.5); insert!(v, 3, 1.5); println(v, " ", popfirst!(v), " ", v)
insert!(x, 5, 1)
