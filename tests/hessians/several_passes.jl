# Hessians that take several passes of three columns, through loops whose saved values are
# pushed and popped in every pass.
# hessian: chained([-1.2, 1.0, 0.5, -0.3, 2.0, 0.7, -1.1])
function chained(x)
    s = 0.0
    for i in 1:length(x)-1
        t = x[i+1] - x[i]^2
        s += t > 0 ? 100 * t^2 : 50 * t^2 + sin(x[i])
        s += (1 - x[i])^2 * exp(0.1 * x[i+1])
    end
    s
end
