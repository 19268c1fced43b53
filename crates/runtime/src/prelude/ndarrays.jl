# Arrays of three dimensions (`Array{T,3}`): construction, reshaping, indexing with slices,
# reductions over dimensions, `permutedims` and `dropdims`. Whole-array arithmetic and
# broadcasting reach them through the generic methods.

Array{T,3}(::UndefInitializer, d::Tuple{Int64,Int64,Int64}) where {T} = Array{T,3}(undef, d[1], d[2], d[3])
Array{T,2}(::UndefInitializer, d::Tuple{Int64,Int64}) where {T} = Matrix{T}(undef, d[1], d[2])
Array{T,1}(::UndefInitializer, d::Tuple{Int64}) where {T} = Vector{T}(undef, d[1])
zeros(::Type{T}, a::Int64, b::Int64, c::Int64) where {T} = fill!(Array{T,3}(undef, a, b, c), zero(T))
zeros(d::Tuple{Int64,Int64,Int64}) = zeros(d[1], d[2], d[3])
zeros(::Type{T}, d::Tuple{Int64,Int64,Int64}) where {T} = zeros(T, d[1], d[2], d[3])
ones(a::Int64, b::Int64, c::Int64) = fill!(Array{Float64,3}(undef, a, b, c), 1.0)
ones(::Type{T}, a::Int64, b::Int64, c::Int64) where {T} = fill!(Array{T,3}(undef, a, b, c), one(T))
ones(d::Tuple{Int64,Int64,Int64}) = ones(d[1], d[2], d[3])
ones(::Type{T}, d::Tuple{Int64,Int64,Int64}) where {T} = ones(T, d[1], d[2], d[3])
fill(x, a::Int64, b::Int64, c::Int64) = fill!(Array{typeof(x),3}(undef, a, b, c), x)
fill(x, d::Tuple{Int64,Int64,Int64}) = fill(x, d[1], d[2], d[3])
similar(a::AbstractArray{T,3}) where {T} = Array{T,3}(undef, size(a, 1), size(a, 2), size(a, 3))
similar(a::AbstractArray{T,3}, ::Type{S}) where {T,S} = Array{S,3}(undef, size(a, 1), size(a, 2), size(a, 3))
similar(a::AbstractArray{T}, d::Tuple{Int64,Int64,Int64}) where {T} = Array{T,3}(undef, d[1], d[2], d[3])
similar(a::AbstractArray, ::Type{S}, d::Tuple{Int64,Int64,Int64}) where {S} = Array{S,3}(undef, d[1], d[2], d[3])
similar(a::AbstractArray, ::Type{S}, d::Tuple{Int64}) where {S} = Vector{S}(undef, d[1])
similar(a::AbstractArray, ::Type{S}, d::Tuple{Int64,Int64}) where {S} = Matrix{S}(undef, d[1], d[2])
reshape(a::Array, x::Int64, y::Int64, z::Int64) = Core.array_reshape(a, x, y, z)
# A reshaped range is an array of its elements (Julia's is a lazy `ReshapedArray` of the range:
# same values and printing).
reshape(r::AbstractRange, dims::Int64...) = reshape(collect(r), dims...)
reshape(r::AbstractRange, d::Tuple) = reshape(collect(r), d)
reshape(a::Array, d::Tuple{Int64}) = reshape(a, d[1])
reshape(a::Array, d::Tuple{Int64,Int64}) = reshape(a, d[1], d[2])
reshape(a::Array, d::Tuple{Int64,Int64,Int64}) = reshape(a, d[1], d[2], d[3])
axes(a::AbstractArray{T,3}) where {T} = (OneTo(size(a, 1)), OneTo(size(a, 2)), OneTo(size(a, 3)))
function collect(a::AbstractArray{T,3}) where {T}
    out = Array{T,3}(undef, size(a, 1), size(a, 2), size(a, 3))
    for k in 1:length(a)
        out[k] = a[k]
    end
    out
end

# Arrays of four dimensions (`Array{T,4}`, e.g. a batch of images): construction, reshaping,
# indexing with scalars and selections, reductions over dimensions; broadcasting, whole-array
# reductions and printing reach them through the generic methods.
Array{T,4}(::UndefInitializer, a::Int64, b::Int64, c::Int64, d::Int64) where {T} = Core.array_new(Array{T,4}, a, b, c, d)
Array{T,4}(::UndefInitializer, d::Tuple{Int64,Int64,Int64,Int64}) where {T} = Array{T,4}(undef, d[1], d[2], d[3], d[4])
size(a::Array{T,4}) where {T} = (Core.arraysize(a, 1), Core.arraysize(a, 2), Core.arraysize(a, 3), Core.arraysize(a, 4))
axes(a::AbstractArray{T,4}) where {T} = (OneTo(size(a, 1)), OneTo(size(a, 2)), OneTo(size(a, 3)), OneTo(size(a, 4)))
getindex(A::Array{T,4}, i::Int64, j::Int64, k::Int64, l::Int64) where {T} = Core.arrayref(A, i, j, k, l)
setindex!(A::Array{T,4}, x, i::Int64, j::Int64, k::Int64, l::Int64) where {T} = Core.arrayset(A, convert(T, x), i, j, k, l)
zeros(a::Int64, b::Int64, c::Int64, d::Int64) = fill!(Array{Float64,4}(undef, a, b, c, d), 0.0)
zeros(::Type{T}, a::Int64, b::Int64, c::Int64, d::Int64) where {T} = fill!(Array{T,4}(undef, a, b, c, d), zero(T))
zeros(d::Tuple{Int64,Int64,Int64,Int64}) = zeros(d[1], d[2], d[3], d[4])
zeros(::Type{T}, d::Tuple{Int64,Int64,Int64,Int64}) where {T} = zeros(T, d[1], d[2], d[3], d[4])
ones(a::Int64, b::Int64, c::Int64, d::Int64) = fill!(Array{Float64,4}(undef, a, b, c, d), 1.0)
ones(::Type{T}, a::Int64, b::Int64, c::Int64, d::Int64) where {T} = fill!(Array{T,4}(undef, a, b, c, d), one(T))
ones(d::Tuple{Int64,Int64,Int64,Int64}) = ones(d[1], d[2], d[3], d[4])
fill(x, a::Int64, b::Int64, c::Int64, d::Int64) = fill!(Array{typeof(x),4}(undef, a, b, c, d), x)
fill(x, d::Tuple{Int64,Int64,Int64,Int64}) = fill(x, d[1], d[2], d[3], d[4])
similar(a::AbstractArray{T,4}) where {T} = Array{T,4}(undef, size(a, 1), size(a, 2), size(a, 3), size(a, 4))
similar(a::AbstractArray{T,4}, ::Type{S}) where {T,S} = Array{S,4}(undef, size(a, 1), size(a, 2), size(a, 3), size(a, 4))
similar(a::AbstractArray{T}, d::Tuple{Int64,Int64,Int64,Int64}) where {T} = Array{T,4}(undef, d[1], d[2], d[3], d[4])
similar(a::AbstractArray, ::Type{S}, d::Tuple{Int64,Int64,Int64,Int64}) where {S} = Array{S,4}(undef, d[1], d[2], d[3], d[4])
reshape(a::Array, w::Int64, x::Int64, y::Int64, z::Int64) = Core.array_reshape(a, w, x, y, z)
reshape(a::Array, d::Tuple{Int64,Int64,Int64,Int64}) = reshape(a, d[1], d[2], d[3], d[4])
function collect(a::AbstractArray{T,4}) where {T}
    out = similar(a)
    for k in 1:length(a)
        out[k] = a[k]
    end
    out
end
keys(A::AbstractArray{T,4}) where {T} = CartesianIndices(A)
# `A[I, J, K, L]` with scalars, ranges, colons, index vectors or masks (the scalar indices'
# extents dropped), assignment into such selections, and reductions over dimensions.
function _nd_indices(A, I, J, K, L)
    ii = _to_index(I, size(A, 1))
    jj = _to_index(J, size(A, 2))
    kk = _to_index(K, size(A, 3))
    ll = _to_index(L, size(A, 4))
    if !_in_bounds(I, ii, size(A, 1)) || !_in_bounds(J, jj, size(A, 2)) || !_in_bounds(K, kk, size(A, 3)) || !_in_bounds(L, ll, size(A, 4))
        Core.throw_bounds(A, (I, J, K, L))
    end
    ii, jj, kk, ll
end
_nd_lens(I, J, K, L, n1::Int64, n2::Int64, n3::Int64, n4::Int64) = (_nd_len(I, n1)..., _nd_len(J, n2)..., _nd_len(K, n3)..., _nd_len(L, n4)...)
function getindex(A::Array{T,4}, I, J, K, L) where {T}
    ii, jj, kk, ll = _nd_indices(A, I, J, K, L)
    B = _nd_alloc(T, _nd_lens(I, J, K, L, length(ii), length(jj), length(kk), length(ll)))
    p = 1
    for l in ll, k in kk, j in jj, i in ii
        B[p] = A[i, j, k, l]
        p += 1
    end
    B
end
setindex!(A::Array{T,4}, x, I, J, K, L) where {T} = _setindex_selection!(A, x, I, J, K, L)
_setindex_selection!(A::Array, x, I, J, K, L) = _single_value_error()
function _setindex_selection!(A::Array, X0::AbstractArray, I, J, K, L)
    ii, jj, kk, ll = _nd_indices(A, I, J, K, L)
    _setindex_shape_check(X0, _nd_lens(I, J, K, L, length(ii), length(jj), length(kk), length(ll)))
    X = _unalias(A, X0)
    p = 1
    for l in ll, k in kk, j in jj, i in ii
        A[i, j, k, l] = X[p]
        p += 1
    end
    A
end
function _reduce_dims(f, op, A::AbstractArray{S,4}, dims, init) where {S}
    _check_dims(dims)
    n1, n2, n3, n4 = size(A, 1), size(A, 2), size(A, 3), size(A, 4)
    r1, r2, r3, r4 = _in_dims(1, dims), _in_dims(2, dims), _in_dims(3, dims), _in_dims(4, dims)
    m1, m2, m3, m4 = r1 ? 1 : n1, r2 ? 1 : n2, r3 ? 1 : n3, r4 ? 1 : n4
    T = Core.return_type(f, eltype(A))
    _check_nonempty(op, init, n1 == 0 || n2 == 0 || n3 == 0 || n4 == 0)
    R = Array{Core.promote_type(_dims_init_type(T, init), T),4}(undef, m1, m2, m3, m4)
    for q in 1:m4, l in 1:m3, j in 1:m2, i in 1:m1
        R[i, j, l, q] = _dims_init(op, f, T, A, i + (j - 1) * n1 + (l - 1) * n1 * n2 + (q - 1) * n1 * n2 * n3, init)
    end
    for q in 1:n4, l in 1:n3, j in 1:n2, i in 1:n1
        ri, rj, rl, rq = r1 ? 1 : i, r2 ? 1 : j, r3 ? 1 : l, r4 ? 1 : q
        R[ri, rj, rl, rq] = op(R[ri, rj, rl, rq], f(A[i, j, l, q]))
    end
    R
end

# `A[I, J, K]` with scalars, ranges, colons, index vectors or masks: the scalar indices' extents
# are dropped from the result's shape, as in Julia.
_nd_len(I::Int64, n::Int64) = ()
_nd_len(I, n::Int64) = (n,)
_nd_lens(I, J, K, l1::Int64, l2::Int64, l3::Int64) = (_nd_len(I, l1)..., _nd_len(J, l2)..., _nd_len(K, l3)...)
_nd_alloc(::Type{T}, d::Tuple{}) where {T} = Vector{T}(undef, 1)
_nd_alloc(::Type{T}, d::Tuple{Int64}) where {T} = Vector{T}(undef, d[1])
_nd_alloc(::Type{T}, d::Tuple{Int64,Int64}) where {T} = Matrix{T}(undef, d[1], d[2])
_nd_alloc(::Type{T}, d::Tuple{Int64,Int64,Int64}) where {T} = Array{T,3}(undef, d[1], d[2], d[3])
_nd_alloc(::Type{T}, d::Tuple{Int64,Int64,Int64,Int64}) where {T} = Array{T,4}(undef, d[1], d[2], d[3], d[4])
function _nd_indices(A, I, J, K)
    ii = _to_index(I, size(A, 1))
    jj = _to_index(J, size(A, 2))
    kk = _to_index(K, size(A, 3))
    if !_in_bounds(I, ii, size(A, 1)) || !_in_bounds(J, jj, size(A, 2)) || !_in_bounds(K, kk, size(A, 3))
        Core.throw_bounds(A, (I, J, K))
    end
    ii, jj, kk
end
getindex(A::Array{T,3}, i::Int64, j::Int64, k::Int64) where {T} = Core.arrayref(A, i, j, k)
setindex!(A::Array{T,3}, x, i::Int64, j::Int64, k::Int64) where {T} = Core.arrayset(A, convert(T, x), i, j, k)
function getindex(A::Array{T,3}, I, J, K) where {T}
    ii, jj, kk = _nd_indices(A, I, J, K)
    B = _nd_alloc(T, _nd_lens(I, J, K, length(ii), length(jj), length(kk)))
    p = 1
    for k in kk, j in jj, i in ii
        B[p] = A[i, j, k]
        p += 1
    end
    B
end
setindex!(A::Array{T,3}, x, I, J, K) where {T} = _setindex_selection!(A, x, I, J, K)
_setindex_selection!(A::Array, x, I, J, K) = _single_value_error()
function _setindex_selection!(A::Array, X0::AbstractArray, I, J, K)
    ii, jj, kk = _nd_indices(A, I, J, K)
    _setindex_shape_check(X0, _nd_lens(I, J, K, length(ii), length(jj), length(kk)))
    X = _unalias(A, X0)
    p = 1
    for k in kk, j in jj, i in ii
        A[i, j, k] = X[p]
        p += 1
    end
    A
end
# Linear indexing of any three-dimensional array type, through its three indices.
function _linear3(A, k::Int64)
    if k < 1 || k > length(A)
        Core.throw_bounds(A, k)
    end
    m = size(A, 1)
    n = size(A, 2)
    (1 + rem(k - 1, m), 1 + rem(div(k - 1, m), n), 1 + div(k - 1, m * n))
end
getindex(A::AbstractArray{T,3}, k::Int64) where {T} = getindex(A, _linear3(A, k)...)
setindex!(A::AbstractArray{T,3}, x, k::Int64) where {T} = setindex!(A, x, _linear3(A, k)...)

# Reductions over dimensions of a three-dimensional array.
function _reduce_dims(f, op, A::AbstractArray{S,3}, dims, init) where {S}
    _check_dims(dims)
    m, n, q = size(A, 1), size(A, 2), size(A, 3)
    r1, r2, r3 = _in_dims(1, dims), _in_dims(2, dims), _in_dims(3, dims)
    rm, rn, rq = r1 ? 1 : m, r2 ? 1 : n, r3 ? 1 : q
    T = Core.return_type(f, eltype(A))
    _check_nonempty(op, init, m == 0 || n == 0 || q == 0)
    R = Array{Core.promote_type(_dims_init_type(T, init), T),3}(undef, rm, rn, rq)
    for l in 1:rq, j in 1:rn, i in 1:rm
        R[i, j, l] = _dims_init(op, f, T, A, i + (j - 1) * m + (l - 1) * m * n, init)
    end
    for l in 1:q, j in 1:n, i in 1:m
        ri = r1 ? 1 : i
        rj = r2 ? 1 : j
        rl = r3 ? 1 : l
        R[ri, rj, rl] = op(R[ri, rj, rl], f(A[i, j, l]))
    end
    R
end

# `permutedims(A)` of a matrix is its transpose as a new matrix (of a vector, the 1×n row);
# `permutedims(A, perm)` reorders the dimensions.
function permutedims(A::AbstractMatrix)
    B = Matrix{eltype(A)}(undef, size(A, 2), size(A, 1))
    for j in 1:size(A, 2), i in 1:size(A, 1)
        B[j, i] = A[i, j]
    end
    B
end
function permutedims(v::AbstractVector)
    B = Matrix{eltype(v)}(undef, 1, length(v))
    for i in 1:length(v)
        B[1, i] = v[i]
    end
    B
end
function _check_perm(perm, n::Int64)
    ok = length(perm) == n
    if ok
        for d in 1:n
            ok = ok && (d in perm)
        end
    end
    ok || throw(ArgumentError("no valid permutation of dimensions"))
end
function permutedims(A::AbstractMatrix, perm)
    _check_perm(perm, 2)
    perm[1] == 1 ? copy(A) : permutedims(A)
end
function permutedims(A::AbstractArray{T,3}, perm) where {T}
    _check_perm(perm, 3)
    s = size(A)
    B = Array{T,3}(undef, s[perm[1]], s[perm[2]], s[perm[3]])
    for l in 1:size(A, 3), j in 1:size(A, 2), i in 1:size(A, 1)
        idx = (i, j, l)
        B[idx[perm[1]], idx[perm[2]], idx[perm[3]]] = A[i, j, l]
    end
    B
end

# `dropdims(A; dims)`: the array without the given dimensions, each of which must have length 1
# (sharing A's memory, as a `reshape`).
function _dropdims_check(A, dims)
    for d in dims
        (d >= 1 && d <= ndims(A)) || throw(ArgumentError("dropped dims must be in range 1:ndims(A)"))
        size(A, d) == 1 || throw(ArgumentError("dropped dims must all be size 1"))
    end
end
function _kept_size(A, dims)
    out = Int64[]
    for d in 1:ndims(A)
        d in dims || push!(out, size(A, d))
    end
    out
end
function dropdims(A::Array; dims)
    _dropdims_check(A, dims)
    keep = _kept_size(A, dims)
    B = A
    length(keep) == 0 && error("not supported yet: `dropdims` down to a zero-dimensional array")
    length(keep) == 1 && return reshape(B, keep[1])
    length(keep) == 2 && return reshape(B, keep[1], keep[2])
    reshape(B, keep[1], keep[2], keep[3])
end

# `cat(As...; dims)`: `dims = 1` is `vcat`, `dims = 2` is `hcat`, `dims = 3` stacks matrices (or
# vectors, as one-column matrices) of one size into a three-dimensional array.
function cat(xs...; dims)
    dims == 1 && return vcat(xs...)
    dims == 2 && return hcat(xs...)
    if dims == 3
        ys = _cat_blocks(xs)
        return _cat3(Core.cat_eltype(ys), ys)
    end
    error("not supported yet: `cat` along dimensions other than 1, 2 and 3")
end
_cat_rows(x::Number) = 1
_cat_rows(x::AbstractArray) = size(x, 1)
_cat_cols(x::Number) = 1
_cat_cols(x::AbstractArray) = size(x, 2)
_cat_pages(x::Number) = 1
_cat_pages(x::AbstractArray) = size(x, 3)
function _cat3(::Type{T}, xs) where {T}
    m = _cat_rows(xs[1])
    n = _cat_cols(xs[1])
    q = 0
    for x in xs
        if _cat_rows(x) != m || _cat_cols(x) != n
            throw(DimensionMismatch(string("mismatch in dimension 1 (expected ", m, " got ", _cat_rows(x), ")")))
        end
        q += _cat_pages(x)
    end
    out = Array{T,3}(undef, m, n, q)
    k = 0
    for x in xs
        for v in x
            k += 1
            out[k] = v
        end
    end
    out
end

# `repeat(A, counts...)` tiles A `counts[d]` times along dimension d; `repeat(v; inner, outer)`
# repeats each element `inner` times, then the whole `outer` times.
repeat(v::AbstractVector, m::Int64) = _repeat_tiles(v, m, 1)
repeat(v::AbstractVector, m::Int64, n::Int64) = _repeat_tiles(reshape(collect(v), length(v), 1), m, n)
repeat(A::AbstractMatrix, m::Int64) = _repeat_tiles(A, m, 1)
repeat(A::AbstractMatrix, m::Int64, n::Int64) = _repeat_tiles(A, m, n)
function _repeat_tiles(v::AbstractVector, m::Int64, n::Int64)
    m >= 0 || throw(ArgumentError(string("counts must be non-negative, got ", m)))
    len = length(v)
    out = Vector{eltype(v)}(undef, len * m)
    for t in 1:m, i in 1:len
        out[(t - 1) * len + i] = v[i]
    end
    out
end
function _repeat_tiles(A::AbstractMatrix, m::Int64, n::Int64)
    (m >= 0 && n >= 0) || throw(ArgumentError(string("counts must be non-negative, got (", m, ", ", n, ")")))
    r = size(A, 1)
    c = size(A, 2)
    out = Matrix{eltype(A)}(undef, r * m, c * n)
    for tj in 1:n, j in 1:c, ti in 1:m, i in 1:r
        out[(ti - 1) * r + i, (tj - 1) * c + j] = A[i, j]
    end
    out
end
function repeat(v::AbstractVector; inner::Int64 = 1, outer::Int64 = 1)
    (inner >= 0 && outer >= 0) || throw(ArgumentError("counts must be non-negative"))
    len = length(v)
    out = Vector{eltype(v)}(undef, len * inner * outer)
    k = 0
    for o in 1:outer, i in 1:len, r in 1:inner
        k += 1
        out[k] = v[i]
    end
    out
end
repeat(s::String, n::Int64) = n <= 0 ? "" : s * repeat(s, n - 1)
