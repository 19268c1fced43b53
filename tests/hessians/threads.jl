# Second derivatives through threaded loops: element-wise terms, per-thread accumulators and
# threaded_map!.
# hessian: pairwise([0.3, -1.2, 0.8, 1.5, -0.4])
# hessian: accumulated([0.6, -0.2, 0.9])
# hessian: mapped_sum([0.5, 1.5, -0.7])
function pairwise(x)
    t = zeros(length(x) - 1)
    Threads.@threads for i in 1:(length(x) - 1)
        t[i] = (x[i + 1] - x[i]^2)^2 + sin(x[i] * x[i + 1])
    end
    sum(t)
end
function accumulated(x)
    acc = zeros(Threads.nthreads())
    Threads.@threads :static for i in eachindex(x)
        acc[Threads.threadid()] += exp(x[i]) * x[i]^2
    end
    sum(acc) * x[1]
end
mapped_sum(x) = sum(threaded_map!((a, b) -> a^3 * b, similar(x), x, reverse(x)))
