# Reductions of a generator fold it while iterating, in order, without collecting it.
v = [1, 2, 3]
# `any` and `all` stop at the first decisive element: indices past the end are never read.
println(any(v[i] > 1 for i in 1:4))
println(all(v[i] < 2 for i in 1:4))
function noisy(x)
    println("visit ", x)
    x
end
println(sum(noisy(x) for x in v if x != 2))
println(any(noisy(x) > 1 for x in v))
# A sum of Bools counts them, as an Int64.
println(sum(x > 1 for x in [2.0]))
println(typeof(sum(x > 1 for x in [2.0, 3.0])))
println(maximum(abs(x) for x in [-3, 2]))
println(minimum(x / 2 for x in 1:4 if iseven(x)))
println(prod(x for x in 1:5))
println(count(iseven(x) for x in 1:10))
println(count(x > 1 for x in v if x < 3))
println(sum(i * w for (i, w) in enumerate([0.5, 0.25])))
println(sum(a * b for (a, b) in zip([1, 2], [3, 4])))
println(sum(1 / k^2 for k in 1:10))
# A local variable named like a reduction is called, not folded.
let sum = x -> "local"
    println(sum(x for x in 1:3))
end
