# check: f(0.7)
struct Pair2{T}
    a::T
    b::T
end
swapsum(p::Pair2{T}) where {T} = p.b * 2 + p.a
f(x) = swapsum(Pair2(x, x^2)) * swapsum(Pair2(1.0, x))
