# Second derivatives through immutable and mutable structs, tuples and named tuples.
# hessian: with_struct([0.3, 1.4])
# hessian: with_mutable([0.6, -0.2, 0.9])
# hessian: with_tuples(1.3)
# hessian: with_named([2.0, 0.5])
# hessian: with_int_fields([0.5, 1.5])
struct Pt
    a::Float64
    b::Float64
end
norm2(p::Pt) = p.a^2 * p.b + p.b^3
with_struct(x) = norm2(Pt(x[1], x[2])) * norm2(Pt(x[2], x[1]))
mutable struct Acc
    s::Float64
    n::Int
end
function with_mutable(x)
    a = Acc(0.0, 0)
    for v in x
        a.s = a.s * v + v^2
        a.n += 1
    end
    a.s / a.n
end
function with_tuples(x)
    t = (x, x^2, sin(x))
    u = (t[1] * t[3], t[2] + t[1])
    u[1] * u[2]
end
function with_named(x)
    p = (w = x[1], b = x[2])
    p.w * exp(p.b * p.w) + p.b^2
end

# Structs with an integer field, built in a loop of a callee and kept in an array: their
# reverse data has `NoRData` parts, whose tangents forward over reverse must keep as `NoRData`.
struct Q
    a::Float64
    k::Int
end
function grow(x, i)
    s = Q(x, i)
    for j in 1:3
        s = Q(s.a * x + j, s.k + 1)
    end
    s
end
function with_int_fields(x)
    qs = [grow(x[1], 2), grow(x[2], 3)]
    t = 0.0
    for q in qs
        t += q.a^2 * q.k
    end
    t
end
