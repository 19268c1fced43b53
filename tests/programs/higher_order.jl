# Higher-order functions of the prelude with anonymous functions and `do` blocks.
v = [1.0, 2.0, 3.0]
println(map(x -> x^2, v))
println(map(x -> 2x, [1, 2, 3]))
println(map(x -> x + 1, 1:3))
println(map((a, b) -> a * b, v, [4.0, 5.0, 6.0]))
w = zeros(3)
map!(x -> x / 2, w, v)
println(w)
println(sum(x -> x^2, v))
println(sum(abs, [-1, 2, -3]))
println(prod(x -> x + 1, 1:4))
println(mapreduce(x -> 2x, +, v))
println(reduce(*, [1, 2, 3, 4]))
println(foldl(-, [10, 1, 2]))
println(maximum(x -> -x, v), " ", minimum(abs, [-3, 2, -1]))
println(any(x -> x > 2.5, v), " ", all(x -> x > 2.5, v), " ", count(iseven, 1:10))
println(filter(x -> x > 1.5, v))
total = 0.0
foreach(v) do x
    global total += x
end
println(total)
function f(v)
    acc = 0.0
    foreach(v) do x
        acc += x^2
    end
    acc
end
println(f(v))
println(map(x -> x * 2, [1.0 2.0; 3.0 4.0]))
println(map(x -> x, Float64[]))
