total(v::Vector{T}) where T = "vector of $T"
total(v::Matrix{Float64}) = "float matrix"
println(total([1, 2]))
println(total([1.0, 2.0]))
println(total(zeros(2, 2)))
realsum(v::AbstractVector{<:Real}) = sum(v)
println(realsum([1, 2, 3]))
println(realsum([0.5, 0.25]))
first_elem(v::AbstractArray{T}) where {T} = T
elt(v::AbstractVector{T}) where {T<:Number} = T
println(elt([1.0]), " ", elt([1]))
samety(x::T, y::T) where {T} = "same $T"
samety(x, y) = "different"
println(samety(1, 2), "; ", samety(1, 2.0), "; ", samety(1.0, 2.0))
bounded(x::T) where {T<:AbstractFloat} = "float $T"
bounded(x) = "other"
println(bounded(1.0), "; ", bounded(1f0), "; ", bounded(1))
dims(a::Array{T,N}) where {T,N} = N
println(dims([1, 2]), " ", dims(ones(2, 3)))
