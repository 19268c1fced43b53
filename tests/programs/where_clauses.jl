zerolike(x::T) where {T<:Number} = zero(T)
println(zerolike(3), " ", zerolike(2.5))
function addall(v::Vector{T}) where T<:Real
    s = zero(T)
    for x in v
        s += x
    end
    s
end
println(addall([1, 2]), " ", addall([0.5, 1.5]))
mkvec(::Type{T}, n) where {T} = zeros(T, n)
println(mkvec(Int, 2), " ", mkvec(Float64, 1))
pairtype(a::S, b::T) where {S, T} = (S, T)
println(pairtype(1, "x"))
