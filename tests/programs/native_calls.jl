# Calls between compiled functions: a redefined callee is called after its redefinition, a
# callee returning a tuple hands over its fields (read one by one, or kept whole), deep
# recursion through a loop, and an error raised by a callee with its stack trace.
g(x) = 1.0
function h(n)
    s = 0.0
    for i in 1:n
        s += g(i)
    end
    s
end
println(h(3))
g(x) = 2.0
println(h(3))
pair(i) = (i, 2.0 * i)
function fields_read(n)
    s = 0.0
    for i in 1:n
        a, b = pair(i)
        s += a * b
    end
    s
end
function kept_whole(n)
    ps = Tuple{Int64, Float64}[]
    for i in 1:n
        p = pair(i)
        push!(ps, p)
    end
    ps
end
println(fields_read(4), " ", kept_whole(3))
rec(n) = n == 0 ? 0 : 1 + rec(n - 1)
function twice(n)
    s = 0
    for i in 1:2
        s += rec(n)
    end
    s
end
println(twice(50000))
bad(x) = x > 2 ? error("too big: ", x) : x
function calls_bad(n)
    s = 0
    for i in 1:n
        s += bad(i)
    end
    s
end
println(calls_bad(2))
println(calls_bad(5))
