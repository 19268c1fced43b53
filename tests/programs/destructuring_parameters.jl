# Parameters written as tuples are destructured, as Julia lowers them: in methods, callable
# structs, anonymous functions and `do` blocks, nested, typed, with a slurping last name.
smile(K, (a, b, c)) = a + b * K + c * K^2
println(smile(2.0, (1.0, 2.0, 3.0)))
struct Cell
    W::Matrix{Float64}
end
(cell::Cell)((h, c), x) = (cell.W * x .+ h, c + 1)
cell = Cell([1.0 2.0; 3.0 4.0])
println(cell(([1.0, 1.0], 2), [1.0, 0.0]))
f = ((a, b), c) -> a * b + c
println(f((2.0, 3.0), 1.0))
println(map(((a, b),) -> a + b, [(1, 2), (3, 4)]))
total = map([(1, 2.0), (3, 4.0)]) do (i, x)
    i * x
end
println(total)
nested((a, (b, c))) = a + 10b + 100c
println(nested((1, (2, 3))))
typed((x::Float64, n)::Tuple{Float64,Int64}) = x^n
println(typed((2.0, 3)))
println(typed((3.0, 2)))
converted((x::Float64, y)) = x / y
println(converted((1, 2)))
ignored((a, _, c)) = a + c
println(ignored((1, 2, 3)))
head_and_rest((h, t...)) = (h, t)
println(head_and_rest((1, 2.0, "three")))
println(head_and_rest([1, 2, 3]))
# The names are local to the function: an outer variable of the same name is untouched.
function outer(v)
    a = 10
    s = sum(((a, b),) -> a * b, v)
    s + a
end
println(outer([(1, 2), (3, 4)]))
# A pair destructures like a tuple; a value with too few elements is Julia's BoundsError.
println(map(((k, v),) -> string(k, "=", v), [:a => 1, :b => 2]))
two((a, b)) = a + b
two((1,))
