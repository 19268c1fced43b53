inc(x) = x + 1
twice(x) = inc(inc(x))
quad(x) = twice(twice(x))
println(quad(0))
function rosenbrock(x)
    s = 0.0
    for i in 1:length(x)-1
        s += 100 * (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
    end
    s
end
println(rosenbrock([1.0, 1.0, 1.0]))
println(rosenbrock([0.0, 0.0]))
println(rosenbrock([-1.2, 1.0, 0.5]))
poly(x) = 3x^3 - 2x^2 + x - 5
println(poly(2), " ", poly(2.5))
