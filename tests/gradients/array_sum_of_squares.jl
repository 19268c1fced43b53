# check: f([1.0, -2.0, 3.0])
function f(x)
    s = 0.0
    for i in eachindex(x)
        s += x[i]^2
    end
    s
end
