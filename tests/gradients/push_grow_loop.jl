# check: f(0.8)
function f(x)
    v = Float64[]
    for i in 1:5
        push!(v, x^i)
    end
    s = 0.0
    while !isempty(v)
        s += pop!(v) * length(v)
    end
    s
end
