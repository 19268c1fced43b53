# The Rosenbrock function in n dimensions, and its starting point.
function rosenbrock(x)
    s = 0.0
    for i in 1:length(x)-1
        s += 100 * (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
    end
    s
end

x0() = [-1.2, 1.0, -1.2, 1.0]

println("f(x0) = ", rosenbrock(x0()))
