# Arrays of immutable structs store their elements inline.
struct P
    x::Float64
    y::Float64
end
ps = [P(1, 2), P(3, 4)]
push!(ps, P(5, 6))
ps[1] = P(-1, -2)
println(ps)
println(length(ps), " ", ps[3].y)
function total(ps)
    s = 0.0
    for p in ps
        s += p.x * p.y
    end
    s
end
println(total(ps))
v = Vector{Tuple{Int, Float64}}(undef, 2)
v[1] = (1, 2.5)
v[2] = (2, 0.5)
println(v, " ", pop!(v), " ", length(v))
