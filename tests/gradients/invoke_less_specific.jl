# check: loss(1.5)
# check: scaled_norm([0.5, -1.25, 2.0])
# `invoke` of a less specific method differentiates as the method it selects.
area(x::Real) = x^2
area(x::Float64) = 2 * invoke(area, Tuple{Real}, x)
loss(x) = area(x) + invoke(area, Tuple{Real}, x)
norm2(v::AbstractVector) = sum(abs2, v)
norm2(v::Vector{Float64}) = sqrt(invoke(norm2, Tuple{AbstractVector}, v))
scaled_norm(v) = 3 * norm2(v) + v[1]
