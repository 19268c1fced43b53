# AD inside the language: `derivative` (forward mode) and `gradient` (reverse mode), nested
# without perturbation confusion.
D(f, x) = derivative(f, x)
println(D(x -> x * D(y -> x + y, 1.0), 1.0))
println(derivative(x -> derivative(sin, x), 1.0) == -sin(1.0))
println(derivative(x -> x^3, 2.0))
println(derivative(x -> derivative(y -> y^4 * x, 1.5), 2.0))
println(gradient(v -> v[1]^2 * v[2], [1.5, 2.0]))
println(gradient(x -> exp(2x), 0.0))
println(derivative(t -> gradient(v -> v[1]^2 * v[2] * t, [1.5, 2.0])[1], 3.0))
let x = 2.0
    p = D(1.0) do y
        x = x * y
    end
    q = D(1.0) do y
        x = y * x
    end
    println((p, q))
end
function poly_sum(x)
    s = 0.0
    for k in 1:4
        s += derivative(t -> t^k, x)
    end
    s
end
println(poly_sum(1.0))
println(derivative(poly_sum, 1.0))
println(derivative(x -> [x, x^2, sin(x)], 0.0))
println(typeof(derivative(x -> x * 2.0f0, 1.0f0)))
