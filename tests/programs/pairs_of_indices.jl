# `pairs(x)`: index => value for each index of a vector, a matrix (Cartesian indices) or a tuple.
v = [10.0, 20.0, 30.0]
for (i, x) in pairs(v)
    println(i, " ", x)
end
println(collect(pairs([1, 2])))
println(sum(i * x for (i, x) in pairs(v)))
A = [1 2; 3 4]
for (I, a) in pairs(A)
    println(I, " ", a)
end
for (k, t) in pairs((:a, 2.5))
    println(k, " ", t)
end
println(length(pairs(v)))
