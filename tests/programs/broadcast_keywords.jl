# Keyword arguments in dotted calls reach every call; results whose element type inference
# leaves open take the join of their elements' types; a field may share a type parameter's name.
x = [1.234, 2.345, -0.5]
println(round.(x, digits = 1), " ", round.(x; digits = 2))
scale(v; by = 1, shift = 0.0) = v * by + shift
println(scale.(x; by = 2), " ", scale.(x, by = 10, shift = 1.0))
mulby(v; by = 1) = v * by
w = [1, 2]
println(mulby.([1.0, 2.0]; by = w))
calls = Ref(0)
count_default() = (calls[] += 1; 3)
println(scale.(x; by = count_default()), " ", calls[])
y = @. round(x; digits = 1) + 1
println(y)
println((v -> v > 0 ? v : 0).(x), " ", (v -> v > 0 ? v : nothing).([0.5, -1.0]) == [0.5, nothing])
struct Wrapper{Q}
    Q::Q
end
println(Wrapper(2.5), " ", Wrapper{Int64}(3).Q)
