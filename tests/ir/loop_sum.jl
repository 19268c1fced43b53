# call: sumsq([1.0, 2.0])
# stages: lowered typed optimised
function sumsq(x)
    s = 0.0
    for i in eachindex(x)
        s += x[i]^2
    end
    s
end
