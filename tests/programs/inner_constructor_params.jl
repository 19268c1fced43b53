# Inner constructors that call new{T}(...) with explicit type parameters.
struct P{T}
    a::T
    b::Int
    P{T}(a) where {T} = new{T}(a, 1)
end
println(P{Float64}(2.0), " ", P{Int64}(3).b)
struct Wrap{T}
    x::T
    function Wrap(x::T) where {T<:Real}
        x < 0 && throw(ArgumentError("negative"))
        new{T}(x)
    end
end
println(Wrap(2.5), " ", typeof(Wrap(3)))
