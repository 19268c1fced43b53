# Second derivatives of loops, branches and early exits.
# hessian: rosenbrock([1.2, 0.9, 1.1, -0.4])
# hessian: branchy([0.3, -1.2, 2.0])
# hessian: while_poly(0.8)
# hessian: nested_loops([0.5, 1.5, -0.5])
rosenbrock(x) = sum((1.0 - x[i])^2 + 100.0 * (x[i+1] - x[i]^2)^2 for i in 1:length(x)-1)
function branchy(x)
    s = 0.0
    for v in x
        if v > 0.0
            s += v^3 + sin(v) * s
        else
            s += exp(v) * v - s^2 / 10
        end
    end
    s
end
function while_poly(x)
    y = x
    k = 0
    while k < 5
        y = y * x + sin(y)
        k += 1
    end
    y
end
function nested_loops(x)
    s = 0.0
    for i in eachindex(x), j in eachindex(x)
        s += x[i] * x[j]^2 / (1.0 + i + j)
    end
    s + prod(x)
end
