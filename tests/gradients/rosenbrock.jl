# check: rosenbrock([-1.2, 1.0, -1.2, 1.0])
function rosenbrock(x)
    s = 0.0
    for i in 1:length(x)-1
        s += 100 * (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
    end
    s
end
