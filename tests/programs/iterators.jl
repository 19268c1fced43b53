# Base.Iterators: lazy iterators, printed as Julia prints them.
for idx in Iterators.partition(1:10, 4)
    println(idx, " ", typeof(idx))
end
println(collect(Iterators.partition([1.0, 2.0, 3.0], 2)))
println(collect(Iterators.partition("abcde", 2)))
println(length(Iterators.partition(1:10, 3)))
println(collect(Iterators.take(1:10, 3)), " ", collect(Iterators.drop(1:5, 2)))
println(collect(Iterators.takewhile(x -> x < 4, 1:10)), " ", collect(Iterators.dropwhile(x -> x < 4, 1:6)))
println(collect(Iterators.flatten([[1, 2], [3], [4, 5]])))
println(collect(Iterators.flatten(((1, 2), 3:4))))
println(collect(Iterators.product(1:2, [10, 20, 30])))
println(collect(Iterators.take(Iterators.cycle([1, 2, 3]), 7)))
println(collect(Iterators.take(Iterators.countfrom(5, 2), 3)), " ", collect(Iterators.repeated(:a, 2)))
println(collect(Iterators.reverse([1, 2, 3])), " ", collect(Iterators.filter(isodd, 1:7)))
println(collect(Iterators.map(x -> x^2, 1:3)), " ", collect(Iterators.map(+, 1:3, 4:6)))
println(collect(Iterators.accumulate(+, [1, 2, 3])), " ", collect(Iterators.enumerate([:a, :b])))
println(collect(Iterators.rest([5, 6, 7, 8], 3)))
println(sum(Iterators.take(1:100, 10)), " ", first(Iterators.drop(1:5, 3)))
println(maximum(Iterators.filter(iseven, [3, 8, 1, 6])), " ", isempty(Iterators.filter(x -> x > 9, 1:5)))
println(typeof(Iterators.take(1:5, 2)))
println(Iterators.take(1:5, 2))
println(typeof(Iterators.filter(isodd, 1:3)))
println(collect(Iterators.product(1:2, 1:2, 1:2))[2, 1, 2])
println(collect(zip(1:3)), " ", collect(zip(1:3, 4:6, 7:9, 10:12)))
for (a, b, c, d) in zip([1.0, 2.0], 3:4, "ab", (5, 6))
    println(a, " ", b, " ", c, " ", d)
end

# Lazy: nothing runs until the elements are asked for.
calls = Ref(0)
squares = Iterators.map(x -> (calls[] += 1; x^2), 1:1000)
println(calls[], " ", first(squares), " ", calls[])
naturals = Iterators.countfrom(1)
println(collect(Iterators.take(Iterators.filter(n -> n % 7 == 0, naturals), 3)))

# A minibatch loop, as a training script writes it.
X = reshape(collect(1.0:12.0), 6, 2)
y = collect(1.0:6.0)
for (k, idx) in enumerate(Iterators.partition(1:length(y), 4))
    Xb, yb = X[idx, :], y[idx]
    println(k, ": ", size(Xb), " ", sum(yb))
end

using Base.Iterators
println(collect(partition(1:5, 2)), " ", collect(take(cycle(1:2), 5)))

# A program's own names are free to be those of Julia's iterator types.
struct Filter
    w::Vector{Float64}
end
println(Filter([1.0, 2.0]))
Iterators.nope(1)
