# Local functions with `where` clauses and return types, and `Array{T}(undef, dims...)`.
function describe(x)
    kind(y::T) where {T<:Integer} = "integer $(T)"
    kind(y::T) where {T<:AbstractFloat} = "float $(T)"
    half(y)::Float64 = y / 2
    twice(y::T)::T where {T} = y + y
    (kind(x), half(x), twice(x))
end
println(describe(3))
println(describe(2.5f0))
function fill_in(n)
    A = Array{Float64}(undef, n, 2)
    v = Vector{Int}(undef, n)
    T3 = Array{Int}(undef, (2, 1, 2))
    for i in 1:n
        A[i, 1] = i
        A[i, 2] = i^2
        v[i] = 10i
    end
    T3 .= 7
    (A, v, size(T3), sum(T3))
end
println(fill_in(2))
