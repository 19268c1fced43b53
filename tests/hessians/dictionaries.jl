# hessian: through_a_dict([0.7, -0.4, 1.3])
# hessian: grouped([0.5, 1.5, -2.0, 0.25])
# Second derivatives through dictionaries: parameters stored in a `Dict` and read back, and
# sums grouped by key while the table grows.
function through_a_dict(x)
    p = Dict(:a => x[1], :b => x[2], :c => x[3])
    p[:a]^2 * p[:b] + exp(p[:c] * p[:a]) + get(p, :d, 1.0) * p[:b]^3
end
function grouped(x)
    acc = Dict{Int,Float64}()
    for i in 1:40
        k = i % 5
        acc[k] = get(acc, k, 0.0) + x[(i % length(x)) + 1] * i
    end
    s = 0.0
    for (k, v) in acc
        s += sin(v / 100) * (k + 1)
    end
    s
end
