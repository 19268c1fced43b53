# An error inside iterations of a threaded loop: every thread's share runs to its end or its
# first error; the loop then raises Julia's TaskFailedException with the first share's error.
function fill_from(x, n)
    out = zeros(n)
    Threads.@threads for i in 1:n
        out[i] = 2 * x[i]
    end
    out
end
println(fill_from([1.0, 2.0, 3.0, 4.0, 5.0], 5))
fill_from([1.0, 2.0, 3.0, 4.0, 5.0], 10)
