# An accumulator that starts as an Int and becomes a Float64
function acc(x)
    z = 0
    for v in x
        z += v
    end
    z
end
println(acc([1.5, 2.5, 3.0]))
println(acc(Float64[]))
println(typeof(acc(Float64[])), " ", typeof(acc([1.0])))
function maybe(n)
    r = nothing
    for i in 1:n
        if i == 3
            r = i * 1.5
        end
    end
    r
end
println(maybe(5), " ", maybe(2))
function sum_mixed()
    total = 0
    for x in (1, 2.5, 3)
        total += x
    end
    total
end
println(sum_mixed())
