# Arrays of immutable structs: literals, reads, writes into new and input arrays, push!/pop!.
# The tangent of a Vector{P} is a Vector{Tangent{P}}.
# check: literal_and_write([1.0, 2.0, 3.0])
# check: undef_then_write([1.0, 2.0, 3.0])
# check: write_input([P(1.0, 2.0), P(3.0, 4.0)], 0.5)
# check: push_pop([1.0, -2.0])
# check: mixed_fields([1.5, 2.0])
struct P
    a::Float64
    b::Float64
end
energy(p::P) = p.a * p.b
function total(ps)
    s = 0.0
    for p in ps
        s += energy(p)
    end
    s
end
function literal_and_write(x)
    ps = [P(x[1], x[2]), P(x[2], x[3])]
    ps[1] = P(ps[1].a * ps[2].b, 2.0)
    total(ps)
end
function undef_then_write(x)
    ps = Vector{P}(undef, 2)
    ps[1] = P(x[1], x[2])
    ps[2] = P(x[2] * x[3], 2.0)
    ps[1] = P(ps[1].a * ps[2].b, 3.0)
    total(ps)
end
function write_input(ps, t)
    for i in eachindex(ps)
        ps[i] = P(ps[i].a * t, ps[i].b + t)
    end
    total(ps)
end
function push_pop(x)
    ps = P[]
    push!(ps, P(x[1], x[2]))
    push!(ps, P(x[2], x[1] * x[1]))
    q = pop!(ps)
    total(ps) + energy(q)
end
struct R
    w::Float64
    n::Int64
    t::Tuple{Float64, Float64}
end
function mixed_fields(x)
    rs = [R(x[1], 2, (x[2], 1.0)), R(x[2], 3, (x[1], x[1]))]
    rs[2] = R(rs[1].w * rs[2].t[2], 1, (x[2], 2.0))
    s = 0.0
    for r in rs
        s += r.w * r.n + r.t[1] * r.t[2]
    end
    s
end
