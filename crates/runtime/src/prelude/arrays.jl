# Arrays: construction, indexing with scalars, ranges, colons, index vectors and masks, slices,
# concatenation (`[a b]`, `[a; b]`), `fill`, `zeros`, `ones`, `copy`, `push!`, and whole-array
# reductions.

Vector{T}(::UndefInitializer, n::Int64) where {T} = Core.array_new(Vector{T}, n)
Matrix{T}(::UndefInitializer, m::Int64, n::Int64) where {T} = Core.array_new(Matrix{T}, m, n)
Array{T,1}(::UndefInitializer, n::Int64) where {T} = Core.array_new(Vector{T}, n)
# The empty vector: `Vector{T}()` is `T[]`.
Vector{T}() where {T} = Core.array_new(Vector{T}, 0)
Array{T,1}() where {T} = Core.array_new(Vector{T}, 0)
Array{T,2}(::UndefInitializer, m::Int64, n::Int64) where {T} = Core.array_new(Matrix{T}, m, n)
Array{T,3}(::UndefInitializer, a::Int64, b::Int64, c::Int64) where {T} = Core.array_new(Array{T,3}, a, b, c)

length(a::Array) = Core.arraylen(a)
size(a::Array{T,1}) where {T} = (Core.arraysize(a, 1),)
size(a::Array{T,2}) where {T} = (Core.arraysize(a, 1), Core.arraysize(a, 2))
size(a::Array{T,3}) where {T} = (Core.arraysize(a, 1), Core.arraysize(a, 2), Core.arraysize(a, 3))
size(a::Array, d::Int64) = Core.arraysize(a, d)
ndims(a::Array{T,N}) where {T,N} = N
eltype(a::Array{T,N}) where {T,N} = T
eltype(::Type{Array{T,N}}) where {T,N} = T
isempty(a::Array) = Core.arraylen(a) == 0
axes(a::Array{T,1}) where {T} = (OneTo(Core.arraylen(a)),)
axes(a::Array{T,2}) where {T} = (OneTo(Core.arraysize(a, 1)), OneTo(Core.arraysize(a, 2)))
axes(a::Array, d::Int64) = OneTo(Core.arraysize(a, d))
eachindex(a::Array) = OneTo(Core.arraylen(a))
eachindex(a::Array, b::Array) = _eachindex2(Core.arraylen(a), Core.arraylen(b))
# Julia's linear indices of two arrays, which must agree.
function _eachindex2(la::Int64, lb::Int64)
    la == lb || throw(DimensionMismatch(string("all inputs to eachindex must have the same indices, got ", OneTo(la), " and ", OneTo(lb))))
    OneTo(la)
end
lastindex(a::Array) = Core.arraylen(a)
lastindex(a::Array, d::Int64) = Core.arraysize(a, d)
firstindex(a::Array) = 1
first(a::Array) = a[1]
last(a::Array) = a[Core.arraylen(a)]

getindex(a::Array, i::Int64) = Core.arrayref(a, i)
# Integers of other types index as the Int64 of their value.
getindex(a::AbstractArray, i::_BitInt) = a[Int64(i)]
getindex(a::AbstractArray, i::Union{Int64,_BitInt}, j::Union{Int64,_BitInt}) = a[Int64(i), Int64(j)]
setindex!(a::AbstractArray, v, i::_BitInt) = (a[Int64(i)] = v; a)
setindex!(a::AbstractArray, v, i::Union{Int64,_BitInt}, j::Union{Int64,_BitInt}) = (a[Int64(i), Int64(j)] = v; a)
getindex(a::Array, i::_BitInt) = a[Int64(i)]
getindex(a::Array, i::Union{Int64,_BitInt}, j::Union{Int64,_BitInt}) = a[Int64(i), Int64(j)]
setindex!(a::Array, v, i::_BitInt) = (a[Int64(i)] = v; a)
setindex!(a::Array, v, i::Union{Int64,_BitInt}, j::Union{Int64,_BitInt}) = (a[Int64(i), Int64(j)] = v; a)
Vector{T}(u::UndefInitializer, n::_BitInt) where {T} = Vector{T}(u, Int64(n))
getindex(a::Array, i::Int64, j::Int64) = Core.arrayref(a, i, j)
getindex(a::Array, i::Int64, j::Int64, k::Int64) = Core.arrayref(a, i, j, k)
setindex!(a::Array{T,N}, v, i::Int64) where {T,N} = Core.arrayset(a, convert(T, v), i)
setindex!(a::Array{T,N}, v, i::Int64, j::Int64) where {T,N} = Core.arrayset(a, convert(T, v), i, j)
setindex!(a::Array{T,N}, v, i::Int64, j::Int64, k::Int64) where {T,N} = Core.arrayset(a, convert(T, v), i, j, k)

# Slices (copies, as in Julia).
function getindex(a::Vector{T}, r::UnitRange{Int64}) where {T}
    n = length(r)
    if n > 0 && (r.start < 1 || r.stop > length(a))
        Core.throw_bounds(a, r)
    end
    b = Vector{T}(undef, n)
    for k in 1:n
        b[k] = a[r.start + k - 1]
    end
    b
end
function getindex(a::Vector{T}, r::StepRange{Int64,Int64}) where {T}
    n = length(r)
    # Checked before allocating, as Julia does (`x[1:2:typemax(Int)]` is a BoundsError).
    if n > 0 && (min(r.start, r.stop) < 1 || max(r.start, r.stop) > length(a))
        Core.throw_bounds(a, r)
    end
    b = Vector{T}(undef, n)
    k = 1
    for i in r
        b[k] = a[i]
        k += 1
    end
    b
end
getindex(a::Vector, ::Colon) = copy(a)
# Linear indexing of an array of two or more dimensions with ranges, colons and index vectors
# (`A[2:3]`, `A[:]`, `A[[1, 4]]`), or with a mask of its own shape (`A[A .> 0]`): a vector of the
# selected elements, in column-major order.
function getindex(A::Array{T,N}, I) where {T,N}
    idx = _to_index(I, length(A))
    _in_bounds(I, idx, length(A)) || Core.throw_bounds(A, I)
    B = Vector{T}(undef, length(idx))
    k = 1
    for p in idx
        B[k] = A[p]
        k += 1
    end
    B
end
getindex(A::Array{T,N}, M::Array{Bool,N}) where {T,N} = A[_mask_positions(A, M)]
function _mask_positions(A, M)
    size(M) == size(A) || Core.throw_bounds(A, M)
    _true_positions(M)
end

# Indexing with ranges, colons, vectors of indices and logical masks, as Julia's
# `to_indices`: the positions an index selects along a dimension of extent `n`.
_to_index(i::Int64, n::Int64) = i:i
_to_index(::Colon, n::Int64) = 1:n
_to_index(r::UnitRange{Int64}, n::Int64) = r
_to_index(r::StepRange{Int64,Int64}, n::Int64) = r
_to_index(v::AbstractVector{Int64}, n::Int64) = v
_to_index(mask::Vector{Bool}, n::Int64) = _true_positions(mask)
# The positions of a mask's `true` entries, in order.
function _true_positions(mask)
    out = Int64[]
    for k in 1:length(mask)
        if mask[k]
            push!(out, k)
        end
    end
    out
end
# Whether positions `idx` (or the mask `I`) fit in a dimension of extent `n`.
function _in_bounds(I, idx, n::Int64)
    for p in idx
        if p < 1 || p > n
            return false
        end
    end
    true
end
_in_bounds(mask::Vector{Bool}, idx, n::Int64) = length(mask) == n

# The array `A[I, J]` makes: a scalar index drops its dimension.
_selection(::Type{T}, I::Int64, J, m::Int64, n::Int64) where {T} = Vector{T}(undef, n)
_selection(::Type{T}, I, J::Int64, m::Int64, n::Int64) where {T} = Vector{T}(undef, m)
_selection(::Type{T}, I, J, m::Int64, n::Int64) where {T} = Matrix{T}(undef, m, n)

function getindex(a::Vector{T}, I::AbstractVector{Int64}) where {T}
    _in_bounds(I, I, length(a)) || Core.throw_bounds(a, I)
    b = Vector{T}(undef, length(I))
    for k in 1:length(I)
        b[k] = a[I[k]]
    end
    b
end
function getindex(a::Vector{T}, mask::Vector{Bool}) where {T}
    length(mask) == length(a) || Core.throw_bounds(a, mask)
    getindex(a, _to_index(mask, length(a)))
end
getindex(A::Matrix, i::Int64, j::Int64) = Core.arrayref(A, i, j)
function getindex(A::Matrix{T}, I, J) where {T}
    ii = _to_index(I, size(A, 1))
    jj = _to_index(J, size(A, 2))
    if !_in_bounds(I, ii, size(A, 1)) || !_in_bounds(J, jj, size(A, 2))
        Core.throw_bounds(A, (I, J))
    end
    B = _selection(T, I, J, length(ii), length(jj))
    k = 1
    for j in jj, i in ii
        B[k] = A[i, j]
        k += 1
    end
    B
end

# `A[I...] = X`: the elements of X, in order, into the selected places; X's shape must be the
# selection's up to singleton dimensions (Julia's `setindex_shape_check`).
function _setindex_shape_check(X, lens)
    n = 1
    for l in lens
        n *= l
    end
    ok = length(X) == n
    if ok && ndims(X) > 1
        # Non-singleton extents must agree in order.
        xs = Int64[]
        for d in 1:ndims(X)
            size(X, d) == 1 || push!(xs, size(X, d))
        end
        ls = Int64[]
        for l in lens
            l == 1 || push!(ls, l)
        end
        ok = xs == ls
    end
    if !ok
        if length(lens) == 1
            throw(DimensionMismatch(string("tried to assign ", length(X), " elements to ", lens[1], " destinations")))
        end
        throw(DimensionMismatch(string("tried to assign ", _dims_string(size(X)), " array to ", _dims_string(lens), " destination")))
    end
end
function _dims_string(d)
    if length(d) == 1
        return string(d[1], "-element")
    end
    s = string(d[1])
    for k in 2:length(d)
        s = string(s, "×", d[k])
    end
    s
end
_single_value_error() = throw(ArgumentError("indexed assignment with a single value to possibly many locations is not supported; perhaps use broadcasting `.=` instead?"))

# (Also linear indexing of an array of any dimensions: `A[2:3] = v`, `A[mask] = v`.)
setindex!(a::Array, x, I::AbstractRange) = _setindex_selection!(a, x, I)
setindex!(a::Array, x, I::Vector) = _setindex_selection!(a, x, I)
setindex!(a::Array, x, I::Colon) = _setindex_selection!(a, x, I)
setindex!(a::Array{T,N}, x, I::Array{Bool,N}) where {T,N} = _setindex_selection!(a, x, _mask_positions(a, I))
_setindex_selection!(a::Array, x, I) = _single_value_error()
function _setindex_selection!(a::Array, X0::AbstractArray, I)
    idx = _to_index(I, length(a))
    _in_bounds(I, idx, length(a)) || Core.throw_bounds(a, I)
    _setindex_shape_check(X0, (length(idx),))
    X = _unalias(a, X0)
    k = 1
    for p in idx
        a[p] = X[k]
        k += 1
    end
    a
end
# `A[I, J] = X`, dropping the extents of scalar indices from the shape X must have.
_lens(I::Int64, J::Int64, m::Int64, n::Int64) = ()
_lens(I::Int64, J, m::Int64, n::Int64) = (n,)
_lens(I, J::Int64, m::Int64, n::Int64) = (m,)
_lens(I, J, m::Int64, n::Int64) = (m, n)
setindex!(A::Matrix{T}, x, i::Int64, j::Int64) where {T} = Core.arrayset(A, convert(T, x), i, j)
setindex!(A::Matrix, x, I, J) = _setindex_selection!(A, x, I, J)
_setindex_selection!(A::Matrix, x, I, J) = _single_value_error()
function _setindex_selection!(A::Matrix, X0::AbstractArray, I, J)
    ii = _to_index(I, size(A, 1))
    jj = _to_index(J, size(A, 2))
    if !_in_bounds(I, ii, size(A, 1)) || !_in_bounds(J, jj, size(A, 2))
        Core.throw_bounds(A, (I, J))
    end
    _setindex_shape_check(X0, _lens(I, J, length(ii), length(jj)))
    X = _unalias(A, X0)
    k = 1
    for j in jj, i in ii
        A[i, j] = X[k]
        k += 1
    end
    A
end

# `y[I...] .= rhs` broadcasts into the selected places of `y`, as Julia's `dotview`: into a
# view of `y` (into the element itself for one number per dimension: an error unless the
# element is an array).
_dotview(y, I...) = _maybeview(y, I...)

iterate_start(a::Array) = 1
iterate_done(a::Array, i::Int64) = i > Core.arraylen(a)
iterate_next(a::Array, i::Int64) = (Core.arrayref(a, i), i + 1)

copy(a::Array) = Core.array_copy(a)
reshape(a::Array, m::Int64, n::Int64) = Core.array_reshape(a, m, n)
reshape(a::Array, n::Int64) = Core.array_reshape(a, n)
vec(a::Vector) = a
vec(a::Array) = Core.array_reshape(a, length(a))

function fill!(a::Array{T,N}, x) where {T,N}
    v = convert(T, x)
    for i in 1:length(a)
        Core.arrayset(a, v, i)
    end
    a
end
fill(x, n::Int64) = fill!(Vector{typeof(x)}(undef, n), x)
fill(x, m::Int64, n::Int64) = fill!(Matrix{typeof(x)}(undef, m, n), x)
zeros(n::Int64) = fill!(Vector{Float64}(undef, n), 0.0)
zeros(m::Int64, n::Int64) = fill!(Matrix{Float64}(undef, m, n), 0.0)
zeros(::Type{T}, n::Int64) where {T} = fill!(Vector{T}(undef, n), zero(T))
zeros(a::Int64, b::Int64, c::Int64) = fill!(Array{Float64,3}(undef, a, b, c), 0.0)
zeros(::Type{T}, m::Int64, n::Int64) where {T} = fill!(Matrix{T}(undef, m, n), zero(T))
ones(n::Int64) = fill!(Vector{Float64}(undef, n), 1.0)
ones(m::Int64, n::Int64) = fill!(Matrix{Float64}(undef, m, n), 1.0)
# Dimensions as a tuple.
fill(x, d::Tuple{Int64}) = fill(x, d[1])
fill(x, d::Tuple{Int64,Int64}) = fill(x, d[1], d[2])
zeros(d::Tuple{Int64}) = zeros(d[1])
zeros(d::Tuple{Int64,Int64}) = zeros(d[1], d[2])
zeros(::Type{T}, d::Tuple{Int64}) where {T} = zeros(T, d[1])
zeros(::Type{T}, d::Tuple{Int64,Int64}) where {T} = zeros(T, d[1], d[2])
ones(d::Tuple{Int64}) = ones(d[1])
ones(d::Tuple{Int64,Int64}) = ones(d[1], d[2])
ones(::Type{T}, n::Int64) where {T} = fill!(Vector{T}(undef, n), one(T))
ones(::Type{T}, m::Int64, n::Int64) where {T} = fill!(Matrix{T}(undef, m, n), one(T))

push!(a::Vector{T}, x) where {T} = Core.array_push(a, convert(T, x))
pop!(a::Vector) = Core.array_pop(a)
resize!(a::Vector, n::Int64) = Core.array_resize(a, n)
function append!(a::Vector, b)
    for x in b
        push!(a, x)
    end
    a
end
# Several values or collections at once, in order.
function push!(a::Vector, x, y, zs...)
    push!(a, x)
    push!(a, y)
    for z in zs
        push!(a, z)
    end
    a
end
function append!(a::Vector, b, c, ds...)
    append!(a, b)
    append!(a, c)
    for d in ds
        append!(a, d)
    end
    a
end

# Array literals. A short literal is stored element by element in straight-line code (each
# `_store_each!` of one more element is its own method instance, inlined), so its elements
# never form a tuple in memory; a long one is stored by a loop over the tuple.
vect(xs...) = _literal(Core.promote_eltype(xs), xs)
getindex(::Type{T}, xs...) where {T} = _literal(T, xs)
function _literal(::Type{T}, xs) where {T}
    n = Core.tuple_len(xs)
    a = Vector{T}(undef, n)
    n <= 16 && return _store_each!(a, 1, xs...)
    for i in 1:n
        a[i] = Core.tuple_getindex(xs, i)
    end
    a
end
_store_each!(a, i) = a
function _store_each!(a, i, x, rest...)
    a[i] = x
    _store_each!(a, i + 1, rest...)
end
# Concatenation, as Julia's `hcat`, `vcat` and `hvcat` (the syntax `[a b]`, `[a; b]` and
# `[a b; c d]`): numbers are 1×1 blocks and vectors are columns.
_cat_rows(x) = 1
_cat_rows(x::Array) = size(x, 1)
_cat_cols(x) = 1
_cat_cols(x::Vector) = 1
_cat_cols(x::Matrix) = size(x, 2)
_cat_cols(x::Array) = error("not supported yet: concatenating arrays of more than two dimensions")
_cat_isnumber(x) = true
_cat_isnumber(x::Array) = false
function _cat_count(xs, isnumber::Bool)
    c = 0
    for k in 1:Core.tuple_len(xs)
        if _cat_isnumber(Core.tuple_getindex(xs, k)) == isnumber
            c += 1
        end
    end
    c
end
# `(2, 3)`: the size along `d` of each of `xs[lo:hi]`, as a tuple would print.
function _cat_sizes(xs, d::Int64, lo::Int64, hi::Int64)
    s = "("
    for k in lo:hi
        x = Core.tuple_getindex(xs, k)
        s = string(s, d == 1 ? _cat_rows(x) : _cat_cols(x), k < hi ? ", " : (lo == hi ? ",)" : ")"))
    end
    s
end
# Writes the block `x` into `A` with its first element at `(r, c)`.
function _cat_set!(A::Matrix, r::Int64, c::Int64, x)
    A[r, c] = x
    A
end
function _cat_set!(A::Matrix, r::Int64, c::Int64, x::Vector)
    for i in 1:length(x)
        A[r + i - 1, c] = x[i]
    end
    A
end
function _cat_set!(A::Matrix, r::Int64, c::Int64, x::Matrix)
    for j in 1:size(x, 2), i in 1:size(x, 1)
        A[r + i - 1, c + j - 1] = x[i, j]
    end
    A
end
# Checks that `xs[lo:hi]` have the same extent along `d` (1: rows, 2: columns), with the
# messages of Julia's `hcat`/`vcat` of arrays and of its general `cat` when numbers are among
# them.
function _cat_check(xs, d::Int64, lo::Int64, hi::Int64)
    x1 = Core.tuple_getindex(xs, lo)
    want = d == 1 ? _cat_rows(x1) : _cat_cols(x1)
    arrays = true
    for k in lo:hi
        arrays = arrays && !_cat_isnumber(Core.tuple_getindex(xs, k))
    end
    for k in lo:hi
        x = Core.tuple_getindex(xs, k)
        got = d == 1 ? _cat_rows(x) : _cat_cols(x)
        if got != want
            if arrays
                what = d == 1 ? "rows" : "columns"
                throw(DimensionMismatch(string("number of ", what, " of each array must match (got ", _cat_sizes(xs, d, lo, hi), ")")))
            end
            throw(DimensionMismatch(string("mismatch in dimension ", d, " (expected ", want, " got ", got, ")")))
        end
    end
    want
end
# `hcat(xs[lo:hi]...)` into `A` at row `r`, column `c`; the number of columns written.
function _hcat_into!(A::Matrix, r::Int64, c::Int64, xs, lo::Int64, hi::Int64)
    c0 = c
    for k in lo:hi
        x = Core.tuple_getindex(xs, k)
        _cat_set!(A, r, c, x)
        c += _cat_cols(x)
    end
    c - c0
end
function _hcat_width(xs, lo::Int64, hi::Int64)
    w = 0
    for k in lo:hi
        w += _cat_cols(Core.tuple_getindex(xs, k))
    end
    w
end

# Blocks that are arrays of other kinds (ranges, views, adjoints, structured matrices) are
# concatenated as the arrays of their elements (`[x'; y']`, `hcat(1:3, v)`).
_cat_block(x) = x
_cat_block(x::AbstractArray) = collect(x)
_cat_block(x::Array) = x
_cat_blocks(xs::Tuple) = map(_cat_block, xs)
# (Each block is collected once: the element type and the data come from the same blocks.)
function hcat(xs...)
    ys = _cat_blocks(xs)
    _hcat(Core.cat_eltype(ys), ys)
end
typed_hcat(::Type{T}, xs...) where {T} = _hcat(T, _cat_blocks(xs))
_hcat(::Type{T}, xs::Tuple{}) where {T} = Vector{T}(undef, 0)
function _hcat(::Type{T}, xs) where {T}
    n = Core.tuple_len(xs)
    m = _cat_check(xs, 1, 1, n)
    A = Matrix{T}(undef, m, _hcat_width(xs, 1, n))
    _hcat_into!(A, 1, 1, xs, 1, n)
    A
end

function vcat(xs...)
    ys = _cat_blocks(xs)
    _vcat_into(Core.vcat_type(Core.cat_eltype(ys), ys), ys)
end
function typed_vcat(::Type{T}, xs...) where {T}
    ys = _cat_blocks(xs)
    _vcat_into(Core.vcat_type(T, ys), ys)
end
function _vcat_into(::Type{Vector{T}}, xs) where {T}
    n = Core.tuple_len(xs)
    len = 0
    for k in 1:n
        len += length(Core.tuple_getindex(xs, k))
    end
    a = Vector{T}(undef, len)
    i = 1
    for k in 1:n
        i = _vcat_set!(a, i, Core.tuple_getindex(xs, k))
    end
    a
end
function _vcat_set!(a::Vector, i::Int64, x)
    a[i] = x
    i + 1
end
function _vcat_set!(a::Vector, i::Int64, x::Vector)
    for j in 1:length(x)
        a[i + j - 1] = x[j]
    end
    i + length(x)
end
function _vcat_into(::Type{Matrix{T}}, xs) where {T}
    n = Core.tuple_len(xs)
    nc = _cat_check(xs, 2, 1, n)
    nr = 0
    for k in 1:n
        nr += _cat_rows(Core.tuple_getindex(xs, k))
    end
    A = Matrix{T}(undef, nr, nc)
    r = 1
    for k in 1:n
        x = Core.tuple_getindex(xs, k)
        _cat_set!(A, r, 1, x)
        r += _cat_rows(x)
    end
    A
end

hvcat(rows::Tuple, xs::Number...) = typed_hvcat(Core.cat_eltype(xs), rows, xs...)
function hvcat(rows::Tuple, xs...)
    ys = _cat_blocks(xs)
    _hvcat_blocks(Core.cat_eltype(ys), rows, ys)
end
function typed_hvcat(::Type{T}, rows::Tuple, xs::Number...) where {T}
    nr = length(rows)
    nc = rows[1]
    for i in 2:nr
        if rows[i] != nc
            throw(DimensionMismatch(string("row ", i, " has mismatched number of columns (expected ", nc, ", got ", rows[i], ")")))
        end
    end
    n = Core.tuple_len(xs)
    if nr * nc != n
        throw(ArgumentError(string("argument count ", n, " does not match specified shape (", nr, ", ", nc, ")")))
    end
    A = Matrix{T}(undef, nr, nc)
    k = 1
    for i in 1:nr, j in 1:nc
        A[i, j] = Core.tuple_getindex(xs, k)
        k += 1
    end
    A
end
# Blocks: each block row is concatenated horizontally, then the rows vertically; with arrays
# only, the checks and messages of Julia's block method.
typed_hvcat(::Type{T}, rows::Tuple, xs...) where {T} = _hvcat_blocks(T, rows, _cat_blocks(xs))
function _hvcat_blocks(::Type{T}, rows::Tuple, xs::Tuple) where {T}
    nbr = length(rows)
    n = Core.tuple_len(xs)
    total = 0
    for i in 1:nbr
        total += rows[i]
    end
    if total != n
        throw(ArgumentError(string("argument count ", n, " does not match specified shape (expected ", total, ")")))
    end
    arrays = _cat_count(xs, true) == 0
    nc = _hcat_width(xs, 1, rows[1])
    nr = 0
    a = 1
    widths_differ = false
    for i in 1:nbr
        hi = a + rows[i] - 1
        h = arrays ? _cat_rows(Core.tuple_getindex(xs, a)) : _cat_check(xs, 1, a, hi)
        w = _hcat_width(xs, a, hi)
        if arrays
            for j in a:hi
                hj = _cat_rows(Core.tuple_getindex(xs, j))
                if hj != h
                    throw(DimensionMismatch(string("mismatched height in block row ", i, " (expected ", h, ", got ", hj, ")")))
                end
            end
            if w != nc
                throw(DimensionMismatch(string("block row ", i, " has mismatched number of columns (expected ", nc, ", got ", w, ")")))
            end
        end
        widths_differ = widths_differ || w != nc
        nr += h
        a += rows[i]
    end
    if widths_differ
        # The rows, each concatenated into a matrix, are then concatenated vertically.
        s = "("
        a = 1
        for i in 1:nbr
            s = string(s, _hcat_width(xs, a, a + rows[i] - 1), i < nbr ? ", " : ")")
            a += rows[i]
        end
        throw(DimensionMismatch(string("number of columns of each array must match (got ", s, ")")))
    end
    A = Matrix{T}(undef, nr, nc)
    a = 1
    r = 1
    for i in 1:nbr
        _hcat_into!(A, r, 1, xs, a, a + rows[i] - 1)
        r += _cat_rows(Core.tuple_getindex(xs, a))
        a += rows[i]
    end
    A
end

function ==(a::Array, b::Array)
    size(a) == size(b) || return false
    for i in 1:length(a)
        a[i] == b[i] || return false
    end
    true
end
==(a::Tuple, b::Tuple) = tuple_eq(a, b)
function tuple_eq(a, b)
    length(a) == length(b) || return false
    for i in 1:length(a)
        a[i] == b[i] || return false
    end
    true
end

# Reductions.
# As Julia's reductions: the first element starts the sum (so `sum(Real[1, 2.5])` needs no
# `zero(Real)`, and `sum([-0.0]) === -0.0`); a sum of `Bool`s is an `Int64`.
_sum_first(x) = x
_sum_first(x::Bool) = Int64(x)
function _sum_all(a::AbstractArray{T,N}) where {T,N}
    n = length(a)
    if n == 0
        return _sum_first(zero(T))
    end
    s = _sum_first(a[1])
    for i in 2:n
        s += a[i]
    end
    s
end
function _prod_all(a::AbstractArray{T,N}) where {T,N}
    n = length(a)
    if n == 0
        return one(T)
    end
    s = a[1]
    for i in 2:n
        s *= a[i]
    end
    s
end
function _maximum_all(a::AbstractArray)
    isempty(a) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    m = a[1]
    for i in 2:length(a)
        m = max(m, a[i])
    end
    m
end
function _minimum_all(a::AbstractArray)
    isempty(a) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    m = a[1]
    for i in 2:length(a)
        m = min(m, a[i])
    end
    m
end
function maximum(r::UnitRange{Int64})
    isempty(r) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    r.stop
end
function minimum(r::UnitRange{Int64})
    isempty(r) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    r.start
end
function in(x, a)
    for y in a
        y == x && return true
    end
    false
end

# `first(v, n)`/`last(v, n)`: the first or last `n` elements (all when fewer), as a new vector.
function first(v::AbstractVector, n::Int64)
    n < 0 && throw(ArgumentError("Number of elements must be non-negative"))
    v[1:min(n, length(v))]
end
function last(v::AbstractVector, n::Int64)
    n < 0 && throw(ArgumentError("Number of elements must be non-negative"))
    v[max(length(v) - n + 1, 1):length(v)]
end
# Inserting and deleting elements of a vector (the later elements move).
pushfirst!(a::Vector, x) = insert!(a, 1, x)
pushfirst!(a::Vector, x, y, zs...) = prepend!(a, (x, y, zs...))
# The elements of `b` put before `a`'s, in `b`'s order.
function prepend!(a::Vector, b)
    items = collect(b)
    n = length(items)
    m = length(a)
    resize!(a, m + n)
    for k in m:-1:1
        a[k + n] = a[k]
    end
    for k in 1:n
        a[k] = items[k]
    end
    a
end
function insert!(a::Vector, i::Int64, x)
    n = length(a)
    (1 <= i <= n + 1) || Core.throw_bounds(a, i)
    resize!(a, n + 1)
    for k in (n + 1):-1:(i + 1)
        a[k] = a[k - 1]
    end
    a[i] = x
    a
end
function deleteat!(a::Vector, i::Int64)
    n = length(a)
    (1 <= i <= n) || Core.throw_bounds(a, i)
    for k in i:(n - 1)
        a[k] = a[k + 1]
    end
    resize!(a, n - 1)
end
function deleteat!(a::Vector, r::UnitRange{Int64})
    n = length(a)
    isempty(r) && return a
    (1 <= first(r) && last(r) <= n) || Core.throw_bounds(a, r)
    m = length(r)
    for k in first(r):(n - m)
        a[k] = a[k + m]
    end
    resize!(a, n - m)
end
function popfirst!(a::Vector)
    isempty(a) && throw(ArgumentError("array must be non-empty"))
    x = a[1]
    deleteat!(a, 1)
    x
end
# `circshift(v, k)`: the elements moved `k` places towards the end, wrapping around.
function circshift(v::AbstractVector, k::Int64)
    n = length(v)
    out = similar(v)
    n == 0 && return out
    for i in 1:n
        out[mod(i - 1 + k, n) + 1] = v[i]
    end
    out
end
