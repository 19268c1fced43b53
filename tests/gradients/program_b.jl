# check: b([0.1, 0.2, -0.3, 0.4])
function b(x)
    s = 0.0
    for n in eachindex(x)
        s += 5 * x[n]
    end
    s
end
