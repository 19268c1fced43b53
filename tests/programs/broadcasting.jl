# Broadcasting: f.(x), dotted operators and comparisons, .= and .op=, @., size-1 and scalar
# expansion, vectors against matrices; each dotted expression runs as one fused loop.
x = [1.0, 2.0, 3.0]
y = [10.0, 20.0, 30.0]
println(sqrt.(x))
println(x .+ y)
println(x .* 2 .+ 1)
println(x .^ 2 .- x)
println(x .< 2.5)
println(.-x)
A = [1.0 2.0; 3.0 4.0]
println(A .+ [10.0, 20.0])
println(A .* [1.0 10.0])
println(x .+ (1:3))
z = zeros(3)
z .= x .* y
println(z)
z .+= 1
println(z)
@. z = 2 * x + y^2
println(z)
f(a, b) = a * b - 1
println(f.(x, y))
println(sum(x .^ 2))
println(1 .+ 2)
println(max.(x, 2.0))
function g(v)
    w = similar(v)
    w .= v .* v
    sum(w)
end
println(g(x))
println([1, 2] .+ [1.0 2.0 3.0])
