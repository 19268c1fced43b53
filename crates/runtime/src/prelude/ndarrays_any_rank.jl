# Arrays of any number of dimensions (`Array{T,N}`, e.g. `zeros(2, 3, 4, 5, 6)`): the methods
# that serve every rank the rank-specific ones of the files before do not — construction,
# `size`, reshaping, indexing with scalars and selections, assignment into selections,
# reductions over dimensions and views. Broadcasting, whole-array reductions, Cartesian
# indices and printing reach them through the generic methods.

Array{T,N}(::UndefInitializer, d::Vararg{Int64,N}) where {T,N} = Core.array_new(Array{T,N}, d...)
Array{T,N}(::UndefInitializer, d::NTuple{N,Int64}) where {T,N} = Core.array_new(Array{T,N}, d...)
size(a::Array{T,N}) where {T,N} = _array_size(a, ())
_array_size(a::Array{T,N}, d::NTuple{N,Int64}) where {T,N} = d
_array_size(a::Array, d::Tuple) = _array_size(a, (d..., Core.arraysize(a, length(d) + 1)))
axes(a::AbstractArray{T,N}) where {T,N} = map(OneTo, size(a))
keys(A::AbstractArray{T,N}) where {T,N} = CartesianIndices(A)

# `Array{T}(undef, dims...)`: as many dimensions as given.
_array_undef(::Type{T}, d::Vararg{Int64,N}) where {T,N} = Array{T,N}(undef, d)
_array_undef(::Type{T}, d::NTuple{N,Int64}) where {T,N} = Array{T,N}(undef, d)
zeros(d::Vararg{Int64,N}) where {N} = fill!(Array{Float64,N}(undef, d), 0.0)
zeros(d::NTuple{N,Int64}) where {N} = fill!(Array{Float64,N}(undef, d), 0.0)
zeros(::Type{T}, d::Vararg{Int64,N}) where {T,N} = fill!(Array{T,N}(undef, d), zero(T))
zeros(::Type{T}, d::NTuple{N,Int64}) where {T,N} = fill!(Array{T,N}(undef, d), zero(T))
ones(d::Vararg{Int64,N}) where {N} = fill!(Array{Float64,N}(undef, d), 1.0)
ones(d::NTuple{N,Int64}) where {N} = fill!(Array{Float64,N}(undef, d), 1.0)
ones(::Type{T}, d::Vararg{Int64,N}) where {T,N} = fill!(Array{T,N}(undef, d), one(T))
ones(::Type{T}, d::NTuple{N,Int64}) where {T,N} = fill!(Array{T,N}(undef, d), one(T))
fill(x, d::Vararg{Int64,N}) where {N} = fill!(Array{typeof(x),N}(undef, d), x)
fill(x, d::NTuple{N,Int64}) where {N} = fill!(Array{typeof(x),N}(undef, d), x)
similar(a::AbstractArray{T,N}) where {T,N} = Array{T,N}(undef, size(a))
similar(a::AbstractArray{T,N}, ::Type{S}) where {T,N,S} = Array{S,N}(undef, size(a))
similar(a::AbstractArray{T}, d::NTuple{N,Int64}) where {T,N} = Array{T,N}(undef, d)
similar(a::AbstractArray, ::Type{S}, d::NTuple{N,Int64}) where {S,N} = Array{S,N}(undef, d)
_nd_alloc(::Type{T}, d::NTuple{N,Int64}) where {T,N} = Array{T,N}(undef, d)

reshape(a::Array, d::Vararg{Int64,N}) where {N} = Core.array_reshape(a, d...)
reshape(a::Array, d::NTuple{N,Int64}) where {N} = reshape(a, d...)
function collect(a::AbstractArray{T,N}) where {T,N}
    out = Array{T,N}(undef, size(a))
    for k in 1:length(a)
        out[k] = a[k]
    end
    out
end

# Indexing with one integer per dimension, and linear indexing of any array type through its
# subscripts.
getindex(A::Array{T,N}, I::Vararg{Int64,N}) where {T,N} = Core.arrayref(A, I...)
setindex!(A::Array{T,N}, x, I::Vararg{Int64,N}) where {T,N} = Core.arrayset(A, convert(T, x), I...)

# `A[I...]` with scalars, ranges, colons, index vectors or masks in every dimension: the
# selected elements in memory order, the scalar indices' extents dropped from the shape.
function _nd_selection(A, I::Tuple)
    idx = map(_to_index, I, size(A))
    for d in 1:length(I)
        _in_bounds(I[d], idx[d], size(A, d)) || Core.throw_bounds(A, I)
    end
    idx
end
_nd_shape(I::Tuple{}, idx::Tuple{}) = ()
_nd_shape(I::Tuple, idx::Tuple) = (_nd_len(I[1], length(idx[1]))..., _nd_shape(_tuple_tail(I...), _tuple_tail(idx...))...)
_nd_at(idx::Tuple, c::CartesianIndex) = map(getindex, idx, c.I)
function getindex(A::Array{T,N}, I::Vararg{Any,N}) where {T,N}
    idx = _nd_selection(A, I)
    B = _nd_alloc(T, _nd_shape(I, idx))
    p = 1
    for c in CartesianIndices(map(length, idx))
        B[p] = A[_nd_at(idx, c)...]
        p += 1
    end
    B
end
setindex!(A::Array{T,N}, x, I::Vararg{Any,N}) where {T,N} = _nd_setindex!(A, x, I)
_nd_setindex!(A::Array, x, I::Tuple) = _single_value_error()
function _nd_setindex!(A::Array, X0::AbstractArray, I::Tuple)
    idx = _nd_selection(A, I)
    _setindex_shape_check(X0, _nd_shape(I, idx))
    X = _unalias(A, X0)
    p = 1
    for c in CartesianIndices(map(length, idx))
        A[_nd_at(idx, c)...] = X[p]
        p += 1
    end
    A
end

# Reductions over dimensions (`sum(A; dims = (2, 4))`): each element is folded into the slot
# of its subscripts with the reduced ones set to 1.
function _reduce_dims(f, op, A::AbstractArray{S,N}, dims, init) where {S,N}
    _check_dims(dims)
    n = size(A)
    m = ntuple(d -> _in_dims(d, dims) ? 1 : n[d], Val(N))
    T = Core.return_type(f, eltype(A))
    _check_nonempty(op, init, length(A) == 0)
    R = Array{Core.promote_type(_dims_init_type(T, init), T),N}(undef, m)
    strides = ntuple(d -> _nd_stride(n, d), Val(N))
    for c in CartesianIndices(m)
        # The slice's first element, at the linear position of the subscripts `c`.
        k = 1
        for d in 1:N
            k += (c.I[d] - 1) * strides[d]
        end
        R[c] = _dims_init(op, f, T, A, k, init)
    end
    for c in CartesianIndices(n)
        r = CartesianIndex(map((i, e) -> e == 1 ? 1 : i, c.I, m))
        R[r] = op(R[r], f(A[c]))
    end
    R
end
function _nd_stride(n::Tuple, d::Int64)
    s = 1
    for k in 1:(d - 1)
        s *= n[k]
    end
    s
end

# Views of arrays of any rank (`view(A, :, 1, :, 2, :)`, `@view`): the parent's position of a
# view's element takes each non-scalar index in turn, the scalar ones as they are.
function view(A::Array{T,N}, I::Vararg{Any,N}) where {T,N}
    _nd_selection(A, I)
    _subarray(A, map(_view_index, I, size(A)))
end
view(A::Array{T,N}, I::Vararg{Int64,N}) where {T,N} = error("not supported yet: zero-dimensional views (index with integers only to read an element)")
function _view_layout(P::Array{T,N}, I::Tuple, linear::Bool) where {T,N}
    if !linear
        return (0, 0)
    end
    n = size(P)
    lin = 1
    st = 0
    for d in 1:N
        s = _nd_stride(n, d)
        lin += (_view_first(I[d]) - 1) * s
        if st == 0 && !(I[d] isa Int64)
            st = _view_step(I[d]) * s
        end
    end
    (lin - st, st)
end
size(V::SubArray{T,N}) where {T,N} = map(_view_len, _drop_scalars(V.indices...))
_ppos_nd(J::Tuple{}, I::Tuple) = ()
_ppos_nd(J::Tuple, I::Tuple) = _ppos_step(J[1], J, I)
_ppos_step(j::Int64, J::Tuple, I::Tuple) = (j, _ppos_nd(_tuple_tail(J...), I)...)
_ppos_step(j, J::Tuple, I::Tuple) = (_pidx(j, I[1]), _ppos_nd(_tuple_tail(J...), _tuple_tail(I...))...)
# The one- and two-dimensional views' helpers, for parents of any rank.
_ppos(I::Tuple, i::Int64, j::Int64) = _ppos_nd(I, (i, j))
_nonscalar(I::Tuple) = _drop_scalars(I...)[1]
function _plin(A::Array{T,N}, I::Tuple, k::Int64) where {T,N}
    p = _ppos_nd(I, (k,))
    n = size(A)
    lin = 1
    for d in 1:N
        lin += (p[d] - 1) * _nd_stride(n, d)
    end
    lin
end
function _vcheck_nd(V::SubArray, I::Tuple)
    for d in 1:length(I)
        (1 <= I[d] <= size(V, d)) || Core.throw_bounds(V, I)
    end
end
function getindex(V::SubArray{T,N}, I::Vararg{Int64,N}) where {T,N}
    _vcheck_nd(V, I)
    getindex(V.parent, _ppos_nd(V.indices, I)...)
end
function setindex!(V::SubArray{T,N}, x, I::Vararg{Int64,N}) where {T,N}
    _vcheck_nd(V, I)
    setindex!(V.parent, x, _ppos_nd(V.indices, I)...)
    V
end
# Linear indexing of a view of several dimensions, through its subscripts.
function getindex(V::SubArray{T,N}, k::Int64) where {T,N}
    _vcheck(V, k)
    V[CartesianIndices(size(V))[k]]
end
function setindex!(V::SubArray{T,N}, x, k::Int64) where {T,N}
    _vcheck(V, k)
    V[CartesianIndices(size(V))[k]] = x
end
function copy(V::SubArray{T,N}) where {T,N}
    out = Array{T,N}(undef, size(V))
    p = 1
    for c in CartesianIndices(size(V))
        out[p] = V[c]
        p += 1
    end
    out
end

# `stack(xs)`: arrays of one shape as the slices of an array with one more dimension (each
# vector a column); `dims = 1` stacks vectors as rows. `reduce(hcat, vs)` and
# `reduce(vcat, vs)` of a vector of vectors concatenate in one pass, as Julia's do.
stack(xs; dims = Colon()) = _stack(xs, dims)
function _stack_check(x, ax)
    if axes(x) != ax
        throw(DimensionMismatch(string("stack expects uniform slices, got axes(x) == ", axes(x), " while first had ", ax)))
    end
end
function _stack(xs::AbstractVector, ::Colon)
    x1 = xs[1]
    ax = axes(x1)
    m = length(x1)
    out = _nd_alloc(eltype(eltype(xs)), (size(x1)..., length(xs)))
    for j in 1:length(xs)
        x = xs[j]
        _stack_check(x, ax)
        for i in 1:m
            out[(j - 1) * m + i] = x[i]
        end
    end
    out
end
function _stack(xs::AbstractVector, dims::Int64)
    x1 = xs[1]
    if dims == ndims(x1) + 1
        return _stack(xs, Colon())
    end
    if !(x1 isa AbstractVector && dims == 1)
        error("not supported yet: `stack` along a dimension other than the last except for vectors as rows (`dims = 1`)")
    end
    ax = axes(x1)
    out = Matrix{eltype(eltype(xs))}(undef, length(xs), length(x1))
    for j in 1:length(xs)
        x = xs[j]
        _stack_check(x, ax)
        for i in 1:length(x1)
            out[j, i] = x[i]
        end
    end
    out
end
reduce(::typeof(hcat), vs::AbstractVector{<:AbstractVector}) = isempty(vs) ? mapreduce(identity, hcat, vs) : _stack(vs, Colon())
function reduce(::typeof(vcat), vs::AbstractVector{<:AbstractVector})
    isempty(vs) && return mapreduce(identity, vcat, vs)
    n = 0
    for v in vs
        n += length(v)
    end
    out = Vector{eltype(eltype(vs))}(undef, n)
    k = 0
    for v in vs, x in v
        k += 1
        out[k] = x
    end
    out
end
# Arrays of all `true` or all `false`. Julia's are packed `BitArray`s; here they are
# `Array{Bool}`s, as a broadcast with a `Bool` result gives (the same values, indexing and
# printing), and the names `BitVector` and `BitMatrix` stand for `Vector{Bool}` and
# `Matrix{Bool}`.
trues(d::Vararg{Int64,N}) where {N} = fill(true, d)
trues(d::NTuple{N,Int64}) where {N} = fill(true, d)
falses(d::Vararg{Int64,N}) where {N} = fill(false, d)
falses(d::NTuple{N,Int64}) where {N} = fill(false, d)
const BitVector = Vector{Bool}
const BitMatrix = Matrix{Bool}
