# check: f([0.3, -0.4, 0.5])
function f(x)
    c = similar(x)
    s = 0.0
    for i in eachindex(x)
        s += x[i]
        c[i] = s
    end
    c[end] * c[1] + dot(c, x)
end
