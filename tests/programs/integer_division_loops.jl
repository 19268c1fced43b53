# `div` and `rem` on integers inside loops (native code), with Julia's results at the edges:
# rounding toward zero, `rem(typemin(Int), -1) == 0`, and `DivideError` for a zero divisor.
function table(n)
    s = 0
    for k in -n:n
        d = k == 0 ? 1 : k
        s += div(7 * k + 3, d) + rem(5 * k - 1, d) + div(k, 3) + rem(k, 4)
    end
    s
end
println(table(20))
function edges(xs, ys)
    out = Int[]
    for (x, y) in zip(xs, ys)
        push!(out, div(x, y))
        push!(out, rem(x, y))
    end
    out
end
println(edges([7, -7, 7, -7, typemin(Int)], [2, 2, -2, -2, 1]))
println(rem(typemin(Int), -1), " ", [rem(x, -1) for x in [typemin(Int), 5]])
function divide_all(xs, d)
    out = similar(xs)
    for i in eachindex(xs)
        out[i] = div(xs[i], d)
    end
    out
end
println(divide_all([10, 20, 30], 0))
