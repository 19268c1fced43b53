# check: fields_read([0.3, -1.2, 0.8])
# check: kept_whole([0.5, 1.5])
# check: recursive_sum([0.2, 0.4, -0.6, 1.0])
# Helpers called in loops that return tuples (read field by field, or kept whole) and
# recursive helpers: their derived rules call each other directly in native code.
polar(x, y) = (sqrt(x^2 + y^2), atan(y, x))
function fields_read(v)
    s = 0.0
    for i in 1:length(v)-1
        r, θ = polar(v[i], v[i+1])
        s += r * sin(θ)
    end
    s
end
function kept_whole(v)
    ps = Tuple{Float64, Float64}[]
    for x in v
        p = polar(x, 1.0)
        push!(ps, p)
    end
    s = 0.0
    for p in ps
        s += p[1] * p[2]
    end
    s
end
rsum(v, i) = i > length(v) ? 0.0 : v[i]^2 + rsum(v, i + 1)
function recursive_sum(v)
    s = 0.0
    for k in 1:3
        s += rsum(v, k)
    end
    s
end
