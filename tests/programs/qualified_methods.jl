# Methods added to Base's functions through their qualified names, as packages write them.
struct Ring{T} <: AbstractVector{T}
    data::Vector{T}
    shift::Int64
end
Base.size(r::Ring) = (length(r.data),)
Base.getindex(r::Ring, i::Int64) = r.data[mod(i - 1 + r.shift, length(r.data)) + 1]
struct Money
    cents::Int64
end
Base.:+(a::Money, b::Money) = Money(a.cents + b.cents)
function Base.:*(k::Int64, a::Money)
    Money(k * a.cents)
end
Base.zero(::Type{Money}) = Money(0)
r = Ring([1.0, 2.0, 3.0], 1)
println(r[1], " ", r[3], " ", length(r), " ", sum(r), " ", collect(r))
println(Money(150) + 2 * Money(25))
println(Base.:+(1, 2), " ", Base.length([1, 2, 3]))
