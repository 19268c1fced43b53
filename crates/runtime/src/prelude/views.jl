# Views: arrays that read and write their parent's memory, as Julia's `SubArray` (`view`,
# `@view`, `@views`, `selectdim`, `eachcol`, `eachrow`). A colon becomes `Base.Slice`, the
# index of a whole dimension.

struct Slice{T} <: AbstractRange{Int64}
    indices::T
end
length(s::Slice) = length(s.indices)
first(s::Slice) = 1
last(s::Slice) = length(s.indices)
step(s::Slice) = 1
getindex(s::Slice, i::Int64) = i
iterate_start(s::Slice) = 1
iterate_done(s::Slice, i::Int64) = i > length(s.indices)
iterate_next(s::Slice, i::Int64) = (i, i + 1)

size(a::AbstractArray{T,N}, d::Int64) where {T,N} = d <= N ? size(a)[d] : 1
ndims(a::AbstractArray{T,N}) where {T,N} = N
eltype(a::AbstractArray{T}) where {T} = T

struct SubArray{T,N,P,I,L} <: AbstractArray{T,N}
    parent::P
    indices::I
    offset1::Int64
    stride1::Int64
end

_view_index(::Colon, n::Int64) = Slice(OneTo(n))
_view_index(i::Int64, n::Int64) = i
_view_index(r::UnitRange{Int64}, n::Int64) = r
_view_index(r::StepRange{Int64,Int64}, n::Int64) = r
_view_index(v::AbstractVector{Int64}, n::Int64) = v
# A logical mask becomes the positions it selects (Julia collects its `LogicalIndex`).
_view_index(m::Vector{Bool}, n::Int64) = _to_index(m, n)
_view_first(i::Int64) = i
_view_first(r) = first(r)
_view_step(r) = step(r)
# The parent's position of element k along an index.
_pidx(i::Int64, k::Int64) = i
_pidx(r::UnitRange{Int64}, k::Int64) = r.start + k - 1
_pidx(r::StepRange{Int64,Int64}, k::Int64) = r.start + (k - 1) * r.step
_pidx(s::Slice, k::Int64) = k
_pidx(v::AbstractVector{Int64}, k::Int64) = v[k]
_view_len(i::Int64) = 1
_view_len(r) = length(r)

# `offset1` and `stride1` of a view whose elements are evenly spaced in the parent: element k
# is the parent's element `offset1 + stride1 * k` (Julia's fields; zero otherwise).
_view_layout(P::Array, I::Tuple{Any}, linear::Bool) = linear ? (_view_first(I[1]) - _view_step(I[1]), _view_step(I[1])) : (0, 0)
function _view_layout(P::Matrix, I::Tuple{Any,Any}, linear::Bool)
    if !linear
        return (0, 0)
    end
    m = size(P, 1)
    i, j = I
    lin = _view_first(i) + (_view_first(j) - 1) * m
    st = i isa Int64 ? m * _view_step(j) : _view_step(i)
    (lin - st, st)
end
_view_linear(::SubArray{T,N,P,I,true}) where {T,N,P,I} = true
_view_linear(::SubArray{T,N,P,I,false}) where {T,N,P,I} = false

function _subarray(P, I)
    S = Core.subarray_type(P, I)
    v = Core.new(S, P, I, 0, 0)
    off, st = _view_layout(P, I, _view_linear(v))
    Core.new(S, P, I, off, st)
end

function view(a::Array, i)
    I = (_view_index(i, length(a)),)
    idx = _to_index(i, length(a))
    _in_bounds(i, idx, length(a)) || Core.throw_bounds(a, i)
    _subarray(a, I)
end
view(a::Array{T,N}, M::Array{Bool,N}) where {T,N} = view(a, _mask_positions(a, M))
view(a::Array, i::Int64) = error("not supported yet: zero-dimensional views (index with integers only to read an element)")
function view(A::Matrix, i, j)
    I = (_view_index(i, size(A, 1)), _view_index(j, size(A, 2)))
    ii = _to_index(i, size(A, 1))
    jj = _to_index(j, size(A, 2))
    if !_in_bounds(i, ii, size(A, 1)) || !_in_bounds(j, jj, size(A, 2))
        Core.throw_bounds(A, (i, j))
    end
    _subarray(A, I)
end
view(A::Matrix, i::Int64, j::Int64) = error("not supported yet: zero-dimensional views (index with integers only to read an element)")
function view(A::Array{T,3}, i, j, k) where {T}
    I = (_view_index(i, size(A, 1)), _view_index(j, size(A, 2)), _view_index(k, size(A, 3)))
    _nd_indices(A, i, j, k)
    _subarray(A, I)
end
view(A::Array{T,3}, i::Int64, j::Int64, k::Int64) where {T} = error("not supported yet: zero-dimensional views (index with integers only to read an element)")
function _view_layout(P::Array{T,3}, I::Tuple{Any,Any,Any}, linear::Bool) where {T}
    if !linear
        return (0, 0)
    end
    m = size(P, 1)
    n = size(P, 2)
    i, j, k = I
    lin = _view_first(i) + (_view_first(j) - 1) * m + (_view_first(k) - 1) * m * n
    st = !(i isa Int64) ? _view_step(i) : (!(j isa Int64) ? m * _view_step(j) : m * n * _view_step(k))
    (lin - st, st)
end
# A view of a view is a view of the parent at the composed indices (Julia's `reindex`): each of
# the view's non-scalar indices selects from the parent index it stands for.
_view_index(s::Slice, n::Int64) = s
_to_index(s::Slice, n::Int64) = 1:length(s)
_reindex(U::Tuple) = ()
_reindex(U::Tuple, p::Int64, ps...) = (p, _reindex(U, ps...)...)
_reindex(U::Tuple, p, ps...) = (_compose(p, U[1]), _reindex(_tuple_tail(U...), ps...)...)
function _compose_check(p, u)
    n = _view_len(p)
    _in_bounds(u, _to_index(u, n), n) || Core.throw_bounds(p, u)
end
_compose(p, u::Colon) = p
function _compose(p, u::Int64)
    _compose_check(p, u)
    _pidx(p, u)
end
function _compose(s::Slice, u)
    _compose_check(s, u)
    _view_index(u, length(s))
end
_compose(s::Slice, u::Colon) = s
function _compose(s::Slice, u::Int64)
    _compose_check(s, u)
    u
end
function _compose(p::UnitRange{Int64}, u::UnitRange{Int64})
    _compose_check(p, u)
    (p.start + u.start - 1):(p.start + u.stop - 1)
end
function _compose(p, u)
    _compose_check(p, u)
    [_pidx(p, k) for k in _to_index(u, _view_len(p))]
end
function view(V::SubArray{T,N,P}, U...) where {T,N,P<:Array}
    if length(U) != N
        error("not supported yet: a view of a view with a different number of indices than the view has dimensions")
    end
    view(V.parent, _reindex(U, V.indices...)...)
end

# `A[...]` under `@views`: a view of an array unless every index is a number; `getindex`
# otherwise (other containers, typed array literals `T[...]`).
_maybeview(a, I...) = getindex(a, I...)
_maybeview(a::AbstractArray, I...) = view(a, I...)
_maybeview(a::AbstractArray, i::Number) = a[i]
_maybeview(a::AbstractArray, i::Number, j::Number) = a[i, j]
_maybeview(a::AbstractArray, i::Number, j::Number, k::Number) = a[i, j, k]

# A view of integers as an index.
setindex!(a::Vector, x, I::SubArray) = _setindex_selection!(a, x, I)

parent(V::SubArray) = V.parent
parentindices(V::SubArray) = V.indices
size(V::SubArray{T,1}) where {T} = (_view_len(_nonscalar(V.indices)),)
size(V::SubArray{T,2}) where {T} = map(_view_len, _drop_scalars(V.indices...))
size(V::SubArray{T,3}) where {T} = map(_view_len, _drop_scalars(V.indices...))
length(V::SubArray{T,1}) where {T} = _view_len(_nonscalar(V.indices))
length(V::SubArray) = _prod_dims(size(V))
axes(V::SubArray{T,1}) where {T} = (OneTo(length(V)),)
axes(V::SubArray{T,2}) where {T} = (OneTo(size(V, 1)), OneTo(size(V, 2)))
axes(V::SubArray{T,3}) where {T} = (OneTo(size(V, 1)), OneTo(size(V, 2)), OneTo(size(V, 3)))
# The non-scalar indices of a view, in order.
_drop_scalars() = ()
_drop_scalars(i::Int64, rest...) = _drop_scalars(rest...)
_drop_scalars(i, rest...) = (i, _drop_scalars(rest...)...)
# The parent's position of the view's element (i, j) or (i, j, l): each non-scalar index in
# turn takes the next of the view's indices.
_ppos(I::Tuple{Any,Any}, i::Int64, j::Int64) = (_pidx(I[1], i), _pidx(I[2], j))
_ppos(I::Tuple{Int64,Any,Any}, i::Int64, j::Int64) = (I[1], _pidx(I[2], i), _pidx(I[3], j))
_ppos(I::Tuple{Any,Int64,Any}, i::Int64, j::Int64) = (_pidx(I[1], i), I[2], _pidx(I[3], j))
_ppos(I::Tuple{Any,Any,Int64}, i::Int64, j::Int64) = (_pidx(I[1], i), _pidx(I[2], j), I[3])
axes(V::SubArray, d::Int64) = OneTo(size(V, d))
eachindex(V::SubArray) = OneTo(length(V))
lastindex(V::SubArray) = length(V)
lastindex(V::SubArray, d::Int64) = size(V, d)
firstindex(V::SubArray) = 1
isempty(V::SubArray) = length(V) == 0
first(V::SubArray) = V[1]
last(V::SubArray) = V[length(V)]
_nonscalar(I::Tuple{Any}) = I[1]
_nonscalar(I::Tuple{Int64,Any}) = I[2]
_nonscalar(I::Tuple{Any,Int64}) = I[1]
_nonscalar(I::Tuple{Int64,Int64,Any}) = I[3]
_nonscalar(I::Tuple{Int64,Any,Int64}) = I[2]
_nonscalar(I::Tuple{Any,Int64,Int64}) = I[1]

# The parent's linear position of element k of a one-dimensional view.
_plin(P::Array, I::Tuple{Any}, k::Int64) = _pidx(I[1], k)
_plin(A::Matrix, I::Tuple{Int64,Any}, k::Int64) = I[1] + (_pidx(I[2], k) - 1) * size(A, 1)
_plin(A::Matrix, I::Tuple{Any,Int64}, k::Int64) = _pidx(I[1], k) + (I[2] - 1) * size(A, 1)
function _plin(A::Array{T,3}, I::Tuple{Any,Any,Any}, k::Int64) where {T}
    p1 = I[1] isa Int64 ? I[1] : _pidx(I[1], k)
    p2 = I[2] isa Int64 ? I[2] : _pidx(I[2], k)
    p3 = I[3] isa Int64 ? I[3] : _pidx(I[3], k)
    p1 + (p2 - 1) * size(A, 1) + (p3 - 1) * size(A, 1) * size(A, 2)
end
_vlin(V::SubArray{T,1,P,I,true}, k::Int64) where {T,P,I} = V.offset1 + V.stride1 * k
_vlin(V::SubArray{T,1,P,I,false}, k::Int64) where {T,P,I} = _plin(V.parent, V.indices, k)
function _vcheck(V::SubArray, k::Int64)
    if k < 1 || k > length(V)
        Core.throw_bounds(V, k)
    end
end
function getindex(V::SubArray{T,1}, k::Int64) where {T}
    _vcheck(V, k)
    Core.arrayref(V.parent, _vlin(V, k))
end
function setindex!(V::SubArray{T,1}, x, k::Int64) where {T}
    _vcheck(V, k)
    V.parent[_vlin(V, k)] = x
    V
end
function getindex(V::SubArray{T,2}, i::Int64, j::Int64) where {T}
    if i < 1 || j < 1 || i > size(V, 1) || j > size(V, 2)
        Core.throw_bounds(V, (i, j))
    end
    getindex(V.parent, _ppos(V.indices, i, j)...)
end
function setindex!(V::SubArray{T,2}, x, i::Int64, j::Int64) where {T}
    if i < 1 || j < 1 || i > size(V, 1) || j > size(V, 2)
        Core.throw_bounds(V, (i, j))
    end
    setindex!(V.parent, x, _ppos(V.indices, i, j)...)
    V
end
function getindex(V::SubArray{T,3,Array{T,3}}, i::Int64, j::Int64, l::Int64) where {T}
    if i < 1 || j < 1 || l < 1 || i > size(V, 1) || j > size(V, 2) || l > size(V, 3)
        Core.throw_bounds(V, (i, j, l))
    end
    I = V.indices
    Core.arrayref(V.parent, _pidx(I[1], i), _pidx(I[2], j), _pidx(I[3], l))
end
function setindex!(V::SubArray{T,3,Array{T,3}}, x, i::Int64, j::Int64, l::Int64) where {T}
    if i < 1 || j < 1 || l < 1 || i > size(V, 1) || j > size(V, 2) || l > size(V, 3)
        Core.throw_bounds(V, (i, j, l))
    end
    I = V.indices
    V.parent[_pidx(I[1], i), _pidx(I[2], j), _pidx(I[3], l)] = x
    V
end
function getindex(V::SubArray{T,2}, k::Int64) where {T}
    _vcheck(V, k)
    m = size(V, 1)
    V[1 + rem(k - 1, m), 1 + div(k - 1, m)]
end
function setindex!(V::SubArray{T,2}, x, k::Int64) where {T}
    _vcheck(V, k)
    m = size(V, 1)
    V[1 + rem(k - 1, m), 1 + div(k - 1, m)] = x
end
getindex(V::SubArray{T,1}, ::Colon) where {T} = copy(V)
iterate_start(V::SubArray) = 1
iterate_done(V::SubArray, k::Int64) = k > length(V)
iterate_next(V::SubArray, k::Int64) = (V[k], k + 1)
function copy(V::SubArray{T,1}) where {T}
    out = Vector{T}(undef, length(V))
    for k in 1:length(V)
        out[k] = V[k]
    end
    out
end
function copy(V::SubArray{T,2}) where {T}
    out = Matrix{T}(undef, size(V, 1), size(V, 2))
    for k in 1:length(V)
        out[k] = V[k]
    end
    out
end
function copy(V::SubArray{T,3}) where {T}
    out = Array{T,3}(undef, size(V, 1), size(V, 2), size(V, 3))
    for k in 1:length(V)
        out[k] = V[k]
    end
    out
end
collect(V::SubArray) = copy(V)
function fill!(V::SubArray, x)
    for k in 1:length(V)
        V[k] = x
    end
    V
end

selectdim(A::Vector, d::Int64, i) = d == 1 ? view(A, i) : error("selectdim: dimension out of range")
function selectdim(A::Array{T,3}, d::Int64, i) where {T}
    d == 1 && return view(A, i, :, :)
    d == 2 && return view(A, :, i, :)
    view(A, :, :, i)
end
function selectdim(A::Matrix, d::Int64, i)
    if d == 1
        return view(A, i, :)
    end
    view(A, :, i)
end
# `eachcol(A)` and `eachrow(A)`: the columns and rows of a matrix, as views.
struct ColumnSlices{P,AX,S} <: AbstractArray{S,1}
    parent::P
end
struct RowSlices{P,AX,S} <: AbstractArray{S,1}
    parent::P
end
eachcol(A::Matrix{T}) where {T} = Core.new(ColumnSlices{Matrix{T},Tuple{OneTo{Int64}},SubArray{T,1,Matrix{T},Tuple{Slice{OneTo{Int64}},Int64},true}}, A)
eachrow(A::Matrix{T}) where {T} = Core.new(RowSlices{Matrix{T},Tuple{OneTo{Int64}},SubArray{T,1,Matrix{T},Tuple{Int64,Slice{OneTo{Int64}}},true}}, A)
length(c::ColumnSlices) = size(c.parent, 2)
length(r::RowSlices) = size(r.parent, 1)
size(c::ColumnSlices) = (length(c),)
size(r::RowSlices) = (length(r),)
getindex(c::ColumnSlices, j::Int64) = view(c.parent, :, j)
getindex(r::RowSlices, i::Int64) = view(r.parent, i, :)
iterate_start(c::ColumnSlices) = 1
iterate_done(c::ColumnSlices, j::Int64) = j > length(c)
iterate_next(c::ColumnSlices, j::Int64) = (c[j], j + 1)
iterate_start(r::RowSlices) = 1
iterate_done(r::RowSlices, i::Int64) = i > length(r)
iterate_next(r::RowSlices, i::Int64) = (r[i], i + 1)
eachindex(c::ColumnSlices) = OneTo(length(c))
eachindex(r::RowSlices) = OneTo(length(r))

# `eachslice(A; dims)`: the slices of A along a dimension, as views (a matrix's are its rows or
# columns, as `eachrow`/`eachcol`; a three-dimensional array's are collected in a vector of
# views, where Julia keeps a lazy `Slices`: same elements and printing).
function eachslice(A::Matrix; dims::Int64)
    dims == 1 && return eachrow(A)
    dims == 2 && return eachcol(A)
    throw(ArgumentError(string("dimension ", dims, " out of range for a matrix")))
end
function eachslice(A::Array{T,3}; dims::Int64) where {T}
    (dims >= 1 && dims <= 3) || throw(ArgumentError(string("dimension ", dims, " out of range for a three-dimensional array")))
    [selectdim(A, dims, k) for k in 1:size(A, dims)]
end
# `f` applied to each column (`dims = 1`) or row (`dims = 2`) of a matrix, each a copy as
# Julia's `mapslices` passes, the results laid along that dimension: a number gives it length
# one, a vector its length (the same for every slice). `dims = (1, 2)` applies `f` to the whole.
# Arrays of three or more dimensions, along one dimension `d`: the slices in memory order of
# the other dimensions (element `j` of a slice is `stride * (j - 1)` places after its first),
# each result (a number, or a vector of one length) laid along `d` in the result.
function mapslices(f, A::Array{T,N}; dims) where {T,N}
    dims isa Int64 || error("not supported yet: mapslices with dims = $dims")
    1 <= dims <= N || throw(ArgumentError("mapslices: dimension must be between 1 and $N, got $dims"))
    s = size(A)
    L = s[dims]
    stride = 1
    for k in 1:(dims - 1)
        stride *= s[k]
    end
    outer = div(length(A), stride * L)
    slice(lo, hi) = [A[lo + stride * (j - 1) + stride * L * hi + 1] for j in 1:L]
    r1 = f(slice(0, 0))
    m = r1 isa Number ? 1 : length(r1)
    R = Array{eltype(r1),N}(undef, ntuple(k -> k == dims ? m : s[k], Val(N)))
    for hi in 0:(outer - 1), lo in 0:(stride - 1)
        r = lo == 0 && hi == 0 ? r1 : f(slice(lo, hi))
        length(r) == m || throw(DimensionMismatch("mapslices: the results of the slices have lengths $m and $(length(r))"))
        for j in 1:m
            R[lo + stride * (j - 1) + stride * m * hi + 1] = r[j]
        end
    end
    R
end
function mapslices(f, A::Matrix; dims)
    dims isa Tuple && length(dims) == 2 && dims[1] != dims[2] && all(d -> d == 1 || d == 2, dims) && return _mapslices_whole(f(copy(A)))
    dims isa Int64 || error("not supported yet: mapslices with dims = $dims")
    dims >= 1 || throw(ArgumentError("mapslices: dimension must be ≥ 1, got $dims"))
    dims > 2 && throw(ArgumentError("mapslices does not accept dimensions > ndims(A) = 2, got $dims"))
    n = size(A, 3 - dims)
    r1 = f(dims == 1 ? A[:, 1] : A[1, :])
    _mapslices_rest(f, A, dims, n, r1)
end
_mapslices_whole(r::Number) = fill(r, 1, 1)
_mapslices_whole(r::Vector) = reshape(r, length(r), 1)
_mapslices_whole(r::Matrix) = r
function _mapslices_rest(f, A, dims, n, r1::Number)
    R = dims == 1 ? Matrix{typeof(r1)}(undef, 1, n) : Matrix{typeof(r1)}(undef, n, 1)
    R[1] = r1
    for k in 2:n
        R[k] = f(dims == 1 ? A[:, k] : A[k, :])
    end
    R
end
function _mapslices_rest(f, A, dims, n, r1::Vector)
    m = length(r1)
    R = dims == 1 ? Matrix{eltype(r1)}(undef, m, n) : Matrix{eltype(r1)}(undef, n, m)
    for k in 1:n
        r = k == 1 ? r1 : f(dims == 1 ? A[:, k] : A[k, :])
        length(r) == m || throw(DimensionMismatch("mapslices: the results of the slices have lengths $m and $(length(r))"))
        if dims == 1
            R[:, k] = r
        else
            R[k, :] = r
        end
    end
    R
end
_mapslices_rest(f, A, dims, n, r1) = error("not supported yet: mapslices whose function returns a $(typeof(r1))")
