double(x) = 2x
println(3 |> double)
println([1, 2]; )
a = [1.0, 2.0]
b = [3.0]
println([a; b])
println(vcat(a, b))
println(2 in 1:3, " ", 4 ∈ [1, 2])
x = 5; y = 6; println(x + y)
println(ifelse(true, "a", "b"), " ", identity(3), " ", isnothing(nothing))
function multi()
    return 1, 2
end
p, q = multi()
println(p + q)
println(-x^2, " ", (-x)^2, " ", 2 * -3)
@assert true
t = (1, (2, 3))
println(t[2][1])
