# Second derivatives through mutation: arrays written, grown and copied inside the function.
# hessian: write_new([0.4, -0.3, 1.2])
# hessian: overwrite_input([0.7, 1.1])
# hessian: push_loop([0.2, 0.5, -0.9])
# hessian: cumulative([1.0, 0.5, -0.25, 2.0])
function write_new(x)
    y = similar(x)
    for i in eachindex(x)
        y[i] = x[i]^2 * sin(x[i])
    end
    sum(y) * y[1]
end
function overwrite_input(x)
    x[1] = x[1] * x[2]
    x[2] = exp(x[1]) - x[2]^3
    x[1] * x[2]
end
function push_loop(x)
    ys = Float64[]
    for v in x
        push!(ys, v * v)
        push!(ys, cos(v))
    end
    s = 0.0
    for k in eachindex(ys)
        s += ys[k] * k
    end
    s * ys[end]
end
function cumulative(x)
    c = copy(x)
    for i in 2:length(c)
        c[i] = c[i-1] * c[i] + c[i]
    end
    c[end] + sum(c .^ 2)
end
