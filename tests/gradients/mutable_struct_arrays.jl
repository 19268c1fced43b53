# Arrays of mutable structs (the tangent of a Vector{M} is a Vector{MutableTangent{M}} holding
# each element's tangent object) and of immutable structs holding arrays: literals, undef
# arrays filled later, elements replaced and mutated in loops, push!/pop!, copies sharing
# their elements, and an input array of mutable structs.
# check: replace_and_mutate([1.0, 2.0, 3.0])
# check: undef_filled([0.5, -1.5])
# check: particles([Particle(1.0, 0.5), Particle(-2.0, 0.25)], 0.1)
# check: push_pop_mutable([1.0, 2.0])
# check: copy_shares_elements([1.5, -0.5])
# check: holders([1.0, 2.0, 3.0])
# check: mixed_holders([1.0, 2.0], 0.5)
# check: arrays_of_arrays([1.0, 2.0, 3.0])
mutable struct Particle
    x::Float64
    v::Float64
end
function replace_and_mutate(x)
    ps = [Particle(x[1], x[2]), Particle(x[2], x[3])]
    ps[1] = Particle(x[3] * 2.0, x[1])
    ps[2].v = ps[2].v * ps[1].x
    s = 0.0
    for p in ps
        s += p.x * p.v
    end
    s
end
function undef_filled(x)
    ps = Vector{Particle}(undef, 3)
    for i in 1:3
        ps[i] = Particle(x[1] * i, x[2])
    end
    ps[2] = ps[3]
    ps[3].v = sin(ps[1].x)
    s = 0.0
    for p in ps
        s += p.x * p.v
    end
    s
end
function particles(ps, dt)
    for step in 1:5
        for p in ps
            p.v = p.v - dt * p.x
            p.x = p.x + dt * p.v
        end
    end
    s = 0.0
    for p in ps
        s += p.x * p.x + p.v
    end
    s
end
function push_pop_mutable(x)
    ps = Particle[]
    push!(ps, Particle(x[1], 1.0))
    push!(ps, Particle(x[2], x[1]))
    q = pop!(ps)
    q.x = q.x * ps[1].x
    q.x * q.v + ps[1].x
end
function copy_shares_elements(x)
    ps = [Particle(x[1], x[2]), Particle(x[2], x[1])]
    qs = copy(ps)
    qs[1].x = qs[1].x * 3.0
    qs[2] = Particle(x[1] * x[1], 0.0)
    ps[1].x * ps[2].v + qs[2].x
end
struct Holder
    v::Vector{Float64}
end
function holders(x)
    hs = [Holder(x), Holder([x[1], x[2]])]
    hs[2] = Holder([x[3] * x[3]])
    push!(hs, Holder(x))
    s = 0.0
    for h in hs
        h.v[1] = h.v[1] * 2.0
        s += sum(h.v)
    end
    s
end
struct Mixed
    v::Vector{Float64}
    w::Float64
end
function mixed_holders(x, c)
    ms = [Mixed(x, c), Mixed([x[2]], x[1] * c)]
    ms[1] = Mixed(ms[2].v, ms[1].w * ms[2].w)
    push!(ms, Mixed(x, x[2]))
    m = pop!(ms)
    s = m.w * m.v[1]
    for k in ms
        s += k.w * k.v[1]
    end
    s
end
function arrays_of_arrays(x)
    vs = [x, [x[1] * x[2], x[3]]]
    vs[1] = [x[3], x[2]]
    push!(vs, x)
    vs[3][2] = vs[2][1] * vs[1][1]
    s = 0.0
    for v in vs
        s += v[1] * v[2]
    end
    s
end
