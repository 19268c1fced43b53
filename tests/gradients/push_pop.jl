# check: f([0.5, -0.7, 1.1])
function f(x)
    v = Float64[]
    for xi in x
        push!(v, xi^2)
    end
    last = pop!(v)
    sum(v) * last
end
