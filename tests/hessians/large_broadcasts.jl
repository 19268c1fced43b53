# hessian: f([0.7, -0.4])
# hessian: g([0.3, 0.9, -0.2])
# hessian: h([0.7, -0.2])
# Second derivatives through broadcasts over big matrices, and sums of a function over big
# arrays, whose gradients multiply each element's partial derivatives (forward mode over that
# rule).
f(p) = sum(tanh.(fill(p[1], 32, 32) .* p[2]))
function g(v)
    A = [sin(0.1 * (i + 2j)) * v[1] for i in 1:32, j in 1:40]
    b = [v[2] * i / 32 for i in 1:32]
    sum(abs2, tanh.(A .+ b)) + sum(exp.(A .* v[3]))
end
const base = [0.001 * i for i in 1:2000]
huber(x) = abs(x) < 0.5 ? x^2 : abs(x) - 0.25
h(p) = sum(x -> sin(x) * exp(0.1 * x), p[1] .* base .+ p[2]) +
       sum(huber(x) * x for x in p[1] .* [0.01 * (i - j) for i in 1:40, j in 1:40])
