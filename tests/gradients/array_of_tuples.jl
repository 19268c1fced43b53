# check: f(0.8)
function f(x)
    v = Vector{Tuple{Float64, Float64}}(undef, 2)
    v[1] = (x, x^2)
    v[2] = (2x, 1.0)
    s = 0.0
    for t in v
        s += t[1] * t[2]
    end
    s
end
