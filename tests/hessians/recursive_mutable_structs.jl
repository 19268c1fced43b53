# hessian: h([1.5, 0.5])
# Second derivatives through a tree of mutable structs holding vectors of their own type.
mutable struct Tn
    v::Float64
    kids::Vector{Tn}
end
tsum(t::Tn) = t.v^2 + sum(tsum, t.kids; init = 0.0)
h(x) = tsum(Tn(x[1] * x[2], [Tn(2x[1], Tn[]), Tn(x[2]^2, [Tn(sin(x[1]), Tn[])])]))
