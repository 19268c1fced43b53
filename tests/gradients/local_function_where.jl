# check: energy([0.3, -1.2, 2.0])
# A local helper with a `where` clause and a return type, and a buffer made with `Array{T}`.
function energy(x::Vector{T}) where {T}
    sq(y::S)::S where {S<:Real} = y * y
    buf = Array{T}(undef, length(x))
    for i in eachindex(x)
        buf[i] = sq(x[i]) + sin(x[i])
    end
    sum(buf)
end
