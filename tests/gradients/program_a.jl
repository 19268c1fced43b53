# check: a([0.1, 0.2, -0.3, 0.4])
function a(x)
    s = 0.0
    for n in eachindex(x)
        s += cos(exp(x[n]))
    end
    s
end
