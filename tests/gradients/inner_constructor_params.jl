# check: scaled_norm([0.5, 1.5, -2.0])
# A parametric struct built through an inner constructor with `new{T}`, then differentiated
# through its field.
struct Scaled{T}
    v::Vector{T}
    s::T
    function Scaled(v::Vector{T}, s::T) where {T<:Real}
        s > 0 || throw(ArgumentError("scale must be positive"))
        new{T}(v, s)
    end
end
scaled_norm(x) = (p = Scaled(x .^ 2, 2.0 + x[1]); p.s * sum(p.v))
