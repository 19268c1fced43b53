# Cartesian indices (Base): `CartesianIndex(i, j, ...)` names an element of an array by its
# subscripts; `CartesianIndices(A)` (or of a size tuple, or of ranges) is the array of all of
# them, iterated in memory order (the first subscript fastest). Arrays are indexed by them
# (`A[I]`, `A[I] = x`, `A[Is]` with a vector of them), and `keys`, `findall`, `findfirst`,
# `findlast`, `findmax`, `findmin`, `argmax` and `argmin` give them for arrays of two or more
# dimensions, as Julia's do (plain indices for vectors).

struct CartesianIndex{N}
    I::NTuple{N,Int64}
end
CartesianIndex(I::NTuple{N,Int64}) where {N} = CartesianIndex{N}(I)
CartesianIndex(i::Int64...) = CartesianIndex(i)
Tuple(I::CartesianIndex) = I.I
length(I::CartesianIndex{N}) where {N} = N
getindex(I::CartesianIndex, k::Int64) = I.I[k]
==(a::CartesianIndex, b::CartesianIndex) = a.I == b.I
+(a::CartesianIndex{N}, b::CartesianIndex{N}) where {N} = CartesianIndex(map(+, a.I, b.I))
-(a::CartesianIndex{N}, b::CartesianIndex{N}) where {N} = CartesianIndex(map(-, a.I, b.I))
-(a::CartesianIndex) = CartesianIndex(map(-, a.I))
*(k::Int64, a::CartesianIndex) = CartesianIndex(map(x -> k * x, a.I))
*(a::CartesianIndex, k::Int64) = k * a
min(a::CartesianIndex{N}, b::CartesianIndex{N}) where {N} = CartesianIndex(map(min, a.I, b.I))
max(a::CartesianIndex{N}, b::CartesianIndex{N}) where {N} = CartesianIndex(map(max, a.I, b.I))
oneunit(a::CartesianIndex) = CartesianIndex(map(x -> 1, a.I))
zero(a::CartesianIndex) = CartesianIndex(map(x -> 0, a.I))
# Ordered by the last subscript first (memory order).
isless(a::CartesianIndex{N}, b::CartesianIndex{N}) where {N} = _cart_isless(a.I, b.I, N)
function _cart_isless(a, b, k::Int64)
    k == 0 && return false
    a[k] < b[k] && return true
    a[k] > b[k] && return false
    _cart_isless(a, b, k - 1)
end
<(a::CartesianIndex{N}, b::CartesianIndex{N}) where {N} = isless(a, b)
iterate_start(I::CartesianIndex) = throw(ArgumentError("iteration is deliberately unsupported for CartesianIndex. Use `I` rather than `I...`, or use `Tuple(I)...`"))

getindex(A::AbstractArray, I::CartesianIndex) = getindex(A, I.I...)
getindex(A::Array, I::CartesianIndex) = getindex(A, I.I...)
function setindex!(A::AbstractArray, x, I::CartesianIndex)
    setindex!(A, x, I.I...)
    A
end
function setindex!(A::Array, x, I::CartesianIndex)
    setindex!(A, x, I.I...)
    A
end
getindex(A::AbstractArray, Is::AbstractVector{CartesianIndex{N}}) where {N} = [A[I] for I in Is]
getindex(A::Array, Is::Vector{CartesianIndex{N}}) where {N} = [A[I] for I in Is]

struct CartesianIndices{N,R} <: AbstractArray{CartesianIndex{N},N}
    indices::R
end
CartesianIndices(r::NTuple{N,Union{UnitRange{Int64},OneTo{Int64}}}) where {N} = CartesianIndices{N,typeof(r)}(r)
CartesianIndices(d::NTuple{N,Int64}) where {N} = CartesianIndices(map(OneTo, d))
CartesianIndices(A::AbstractArray) = CartesianIndices(axes(A))
CartesianIndices(C::CartesianIndices) = C
size(C::CartesianIndices) = map(length, C.indices)
size(C::CartesianIndices, d::Int64) = d <= length(C.indices) ? length(C.indices[d]) : 1
length(C::CartesianIndices) = _cart_len(C.indices...)
_cart_len() = 1
_cart_len(r, rest...) = length(r) * _cart_len(rest...)
axes(C::CartesianIndices) = map(r -> OneTo(length(r)), C.indices)
first(C::CartesianIndices) = CartesianIndex(map(first, C.indices))
last(C::CartesianIndices) = CartesianIndex(map(last, C.indices))
isempty(C::CartesianIndices) = length(C) == 0
eltype(C::CartesianIndices{N,R}) where {N,R} = CartesianIndex{N}
# The subscripts of the zero-based linear position `k` (the first range fastest).
_cart_sub(k::Int64) = ()
function _cart_sub(k::Int64, r, rest...)
    n = length(r)
    q = div(k, n)
    (first(r) + (k - q * n), _cart_sub(q, rest...)...)
end
function getindex(C::CartesianIndices, k::Int64)
    (1 <= k <= length(C)) || Core.throw_bounds(C, k)
    CartesianIndex(_cart_sub(k - 1, C.indices...))
end
function getindex(C::CartesianIndices{N,R}, i::Int64, j::Int64, more::Int64...) where {N,R}
    sub = (i, j, more...)
    length(sub) == N || throw(ArgumentError(string("a CartesianIndices of ", N, " dimensions takes ", N, " indices")))
    for d in 1:N
        (1 <= sub[d] <= length(C.indices[d])) || Core.throw_bounds(C, sub)
    end
    CartesianIndex(map((r, s) -> first(r) + s - 1, C.indices, sub))
end
iterate_start(C::CartesianIndices) = 1
iterate_done(C::CartesianIndices, k::Int64) = k > length(C)
iterate_next(C::CartesianIndices, k::Int64) = (CartesianIndex(_cart_sub(k - 1, C.indices...)), k + 1)
collect(C::CartesianIndices{1,R}) where {R} = [C[k] for k in 1:length(C)]
function collect(C::CartesianIndices{2,R}) where {R}
    m, n = size(C)
    [CartesianIndex(first(C.indices[1]) + i - 1, first(C.indices[2]) + j - 1) for i in 1:m, j in 1:n]
end

# `keys` of an array of two or more dimensions: its Cartesian indices.
keys(A::AbstractMatrix) = CartesianIndices(A)
keys(A::AbstractArray{T,3}) where {T} = CartesianIndices(A)
keys(A::AbstractVector) = OneTo(length(A))

# The find family: the keys where an array of `Bool`s is true (or where a predicate holds).
findall(A::AbstractArray{Bool}) = findall(identity, A)
function findall(f, A::AbstractArray)
    ks = keys(A)
    out = Vector{eltype(ks)}(undef, 0)
    k = 0
    for I in ks
        k += 1
        f(A[k]) && push!(out, I)
    end
    out
end
findfirst(A::AbstractArray{Bool}) = findfirst(identity, A)
findlast(A::AbstractArray{Bool}) = findlast(identity, A)
function findfirst(f, A::AbstractArray)
    ks = keys(A)
    for k in 1:length(A)
        f(A[k]) && return ks[k]
    end
    nothing
end
function findlast(f, A::AbstractArray)
    ks = keys(A)
    for k in length(A):-1:1
        f(A[k]) && return ks[k]
    end
    nothing
end
function findnext(f, A::AbstractVector, i::Int64)
    for k in max(i, 1):length(A)
        f(A[k]) && return k
    end
    nothing
end
function findprev(f, A::AbstractVector, i::Int64)
    for k in min(i, length(A)):-1:1
        f(A[k]) && return k
    end
    nothing
end
findnext(A::AbstractVector{Bool}, i::Int64) = findnext(identity, A, i)
findprev(A::AbstractVector{Bool}, i::Int64) = findprev(identity, A, i)

# `findmax`/`findmin` of an array of any shape give the key of the extreme value (a
# `CartesianIndex` for a matrix); with a function, the extreme of `f` over the elements; with
# `dims` (of a matrix), the extremes of each slice and their indices. As Julia's, they order by
# `isless` (NaN beats every number) and the first of equal values wins.
function _find_all_extreme(f, A::AbstractArray, better)
    isempty(A) && throw(ArgumentError("collection must be non-empty"))
    m = f(A[1])
    k = 1
    for i in 2:length(A)
        v = f(A[i])
        if better(m, v)
            m = v
            k = i
        end
    end
    (m, keys(A)[k])
end
# With `dims`: the extremes and their `CartesianIndex`es over the given dimensions of a matrix,
# each slice scanned in memory order (the first of equal values wins).
function _find_extreme(f, A::AbstractMatrix, better, dims)
    _check_dims(dims)
    m, n = size(A, 1), size(A, 2)
    r1, r2 = _in_dims(1, dims), _in_dims(2, dims)
    rm, rn = r1 ? 1 : m, r2 ? 1 : n
    ((r1 && m == 0) || (r2 && n == 0)) && throw(ArgumentError("collection must be non-empty"))
    V = Matrix{Core.return_type(f, eltype(A))}(undef, rm, rn)
    I = Matrix{CartesianIndex{2}}(undef, rm, rn)
    for j in 1:rn, i in 1:rm
        V[i, j] = f(A[i, j])
        I[i, j] = CartesianIndex(i, j)
    end
    for j in 1:n, i in 1:m
        ri, rj = r1 ? 1 : i, r2 ? 1 : j
        v = f(A[i, j])
        if better(V[ri, rj], v)
            V[ri, rj] = v
            I[ri, rj] = CartesianIndex(i, j)
        end
    end
    (V, I)
end
_find_extreme(f, A::AbstractArray, better, ::Colon) = _find_all_extreme(f, A, better)
_find_extreme(f, A::AbstractMatrix, better, ::Colon) = _find_all_extreme(f, A, better)
_find_extreme(f, A::AbstractArray, better, dims) = error("not supported yet: `findmax`/`findmin` with `dims` of an array that is not a matrix")
findmax(f, A::AbstractArray; dims = Colon()) = _find_extreme(f, A, _isless_num, dims)
findmin(f, A::AbstractArray; dims = Colon()) = _find_extreme(f, A, _isgreater_num, dims)
findmax(A::AbstractArray; dims = Colon()) = _find_extreme(identity, A, _isless_num, dims)
findmin(A::AbstractArray; dims = Colon()) = _find_extreme(identity, A, _isgreater_num, dims)
argmax(A::AbstractArray; dims = Colon()) = findmax(A; dims = dims)[2]
argmin(A::AbstractArray; dims = Colon()) = findmin(A; dims = dims)[2]
argmax(f, A::AbstractArray) = A[findmax(f, A)[2]]
argmin(f, A::AbstractArray) = A[findmin(f, A)[2]]
