# hessian: f([0.7, -0.4])
# hessian: g([0.3, 0.9, -0.2])
# Second derivatives through broadcasts over big matrices, whose gradients multiply each
# element's partial derivatives (forward mode over that rule).
f(p) = sum(tanh.(fill(p[1], 32, 32) .* p[2]))
function g(v)
    A = [sin(0.1 * (i + 2j)) * v[1] for i in 1:32, j in 1:40]
    b = [v[2] * i / 32 for i in 1:32]
    sum(abs2, tanh.(A .+ b)) + sum(exp.(A .* v[3]))
end
