# check: pair_in_mutable(1.5)
# check: tuple_in_ref(1.5)
# check: replaced_field(1.5)
# check: model_state([1.0, 2.0, -0.5])
# Mutable structs whose fields hold immutable structs or tuples of floats: a `Ref` of a tuple,
# a model whose parameters are replaced at each step.
struct P
    a::Float64
    b::Float64
end
mutable struct M
    p::P
end
pair_in_mutable(x) = (m = M(P(x, 2x)); m.p.a * m.p.b)
tuple_in_ref(x) = (r = Ref((x, 2x)); r[][1] * r[][2])
function replaced_field(x)
    m = M(P(x, 1.0))
    m.p = P(m.p.a * x, 3x)
    m.p.a + m.p.b
end
struct Params
    w::Vector{Float64}
    b::Float64
end
mutable struct Model
    p::Params
    steps::Int
end
function model_state(x)
    m = Model(Params(x[1:2], x[3]), 0)
    s = 0.0
    for i in 1:3
        s += sum(abs2, m.p.w) * m.p.b
        m.p = Params(m.p.w .* 0.5, m.p.b + x[1])
        m.steps += 1
    end
    s
end
