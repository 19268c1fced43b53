# check: f([1.0, 2.0, 3.0])
# check: g(0.4)
# A tuple built from a function of the index, then reduced.
f(x) = sum(ntuple(i -> x[i]^2 * i, 3))
scale(::Val{N}, x) where {N} = N * x
g(x) = scale(Val(3), x) + prod(ntuple(i -> x + i, Val(2)))
