# Higher-order functions. A result's element type is the type of the first result; for an
# empty input, the inferred type of `f` on the element type (`Core.return_type`).

# As Julia's `collect`: the element type is that of the first result, widened (by
# `promote_typejoin`) when a later result does not fit it.
function map(f, a::Array)
    # A big float matrix mapped to floats is the broadcast, whose gradient has the rule of
    # broadcasts (`_bfill_out!`).
    _map_by_broadcast(f, a) && return broadcast(f, a)
    _map_collect(f, a, getindex)
end
# `[f(i) for i in a:b]`: the range read as it is, not collected first (its elements computed
# without a bounds check: the loop below stays within `1:length(r)`).
map(f, r::UnitRange{Int64}) = _map_collect(f, r, _range_element)
_range_element(r::UnitRange{Int64}, i::Int64) = first(r) + (i - 1)
# `f` over the elements of `a` (element `i` is `at(a, i)`), into an array of `a`'s shape.
function _map_collect(f, a, at)
    n = length(a)
    if n == 0
        return similar(a, Core.return_type(f, eltype(a)))
    end
    y = f(at(a, 1))
    out = similar(a, typeof(y))
    out[1] = y
    for i in 2:n
        out = _store_widening(out, f(at(a, i)), i)
    end
    out
end
# `T[... for ...]` (and `T[a;; b]`): the elements converted to `T`, in the same shape (a matrix
# for a comprehension over two iterators).
function _typed_collect(::Type{T}, a::Array) where {T}
    out = similar(a, T)
    for i in 1:length(a)
        out[i] = a[i]
    end
    out
end
# Stores `y` at `out[k]`, in a copy of `out` with a wider element type (that of Julia's
# `collect`) when `y` does not fit; returns the array that holds it.
function _store_widening(out, y, k)
    if !(y isa eltype(out))
        out = _widen(out, typeof(y), k)
    end
    out[k] = y
    out
end
# A copy of `out`'s first n - 1 elements with an element type that also holds T's.
function _widen(out, T, n)
    new = similar(out, Core.promote_typejoin(eltype(out), T))
    for j in 1:n-1
        new[j] = out[j]
    end
    new
end
map(f, r::AbstractRange) = map(f, collect(r))
const _MapFloat = Union{Float64,Float32}
# Whether `f` over the float array `a` takes forward-mode lanes in reverse mode's default
# context: `a` is big enough and `f` returns its element type.
_lanes_take(f, a::Array{T}) where {T<:_MapFloat} =
    length(a) >= _BLANES_MIN && Core.return_type(f, T) === T
_map_by_broadcast(f, xs...) = false
_map_by_broadcast(f, a::Array{T}) where {T<:_MapFloat} = ndims(a) >= 2 && _lanes_take(f, a)
_map_by_broadcast(f, a::Array{T}, b::Array{T}) where {T<:_MapFloat} =
    ndims(a) >= 2 && length(a) >= _BLANES_MIN && Core.return_type(f, T, T) === T
# `[f(x, y) for x in a, y in b]`: a matrix over the product of two collections, `x` varying
# fastest; the element type as `map`'s.
function _product_collect(f, a0, b0)
    a = collect(a0)
    b = collect(b0)
    m = length(a)
    n = length(b)
    if m == 0 || n == 0
        return Matrix{Core.return_type(f, eltype(a), eltype(b))}(undef, m, n)
    end
    y = f(a[1], b[1])
    out = Matrix{typeof(y)}(undef, m, n)
    out[1] = y
    for k in 2:(m * n)
        out = _store_widening(out, f(a[1 + rem(k - 1, m)], b[1 + div(k - 1, m)]), k)
    end
    out
end
# `[f(x, y, z) for x in a, y in b, z in c]`: a three-dimensional array, `x` varying fastest.
function _product_collect(f, a0, b0, c0)
    a = collect(a0)
    b = collect(b0)
    c = collect(c0)
    m = length(a)
    n = length(b)
    q = length(c)
    if m == 0 || n == 0 || q == 0
        return Array{Core.return_type(f, eltype(a), eltype(b), eltype(c)),3}(undef, m, n, q)
    end
    y = f(a[1], b[1], c[1])
    out = Array{typeof(y),3}(undef, m, n, q)
    out[1] = y
    for k in 2:(m * n * q)
        y = f(a[1 + rem(k - 1, m)], b[1 + rem(div(k - 1, m), n)], c[1 + div(k - 1, m * n)])
        out = _store_widening(out, y, k)
    end
    out
end
# `[f(x, y, z) for x in a, y in b, z in c if p(x, y, z)]`: the vector of those that pass.
function _product_filter(f, p, a0, b0, c0)
    a = collect(a0)
    b = collect(b0)
    c = collect(c0)
    triples = Vector{Tuple{eltype(a),eltype(b),eltype(c)}}(undef, 0)
    for l in 1:length(c), j in 1:length(b), i in 1:length(a)
        if p(a[i], b[j], c[l])
            push!(triples, (a[i], b[j], c[l]))
        end
    end
    map(t -> f(t[1], t[2], t[3]), triples)
end
# `[e for x in a for y in b]`: the inner comprehensions' elements in order, in one vector whose
# element type is the join of theirs (the inner ones' type when there are none).
function _flatten_collect(parts)
    n = 0
    for part in parts
        n += length(part)
    end
    out = Vector{_flatten_eltype(parts)}(undef, n)
    k = 0
    for part in parts
        for x in part
            k += 1
            out[k] = x
        end
    end
    _bnarrow(out)
end
_flatten_eltype(parts::AbstractArray{P}) where {P<:AbstractArray} = eltype(P)
_flatten_eltype(parts) = Any
# `[f(x, y) for x in a, y in b if c(x, y)]`: the vector of the pairs that pass, in the same order.
function _product_filter(f, c, a0, b0)
    a = collect(a0)
    b = collect(b0)
    pairs = Vector{Tuple{eltype(a),eltype(b)}}(undef, 0)
    for j in 1:length(b), i in 1:length(a)
        if c(a[i], b[j])
            push!(pairs, (a[i], b[j]))
        end
    end
    map(p -> f(p[1], p[2]), pairs)
end
function map(f, a::Array, b::Array)
    # Arrays of one rank above one zip by their shape, which must match (Julia's
    # `promote_shape`); the result has it.
    if ndims(a) == ndims(b) && ndims(a) >= 2
        _promote_shape(a, b)
        _map_by_broadcast(f, a, b) && return broadcast(f, a, b)
        return reshape(map(f, vec(a), vec(b)), size(a))
    end
    n = min(length(a), length(b))
    if n == 0
        return Vector{Core.return_type(f, eltype(a), eltype(b))}(undef, 0)
    end
    y = f(a[1], b[1])
    out = Vector{typeof(y)}(undef, n)
    out[1] = y
    for i in 2:n
        out = _store_widening(out, f(a[i], b[i]), i)
    end
    out
end
# Any other iterable (`enumerate`, `zip`, tuples, a filtered collection): a vector whose
# element type is `f`'s inferred result type.
_iter_elem(itr, st) = iterate_next(itr, st)[1]
_mapped_eltype(itr, st) = Core.return_type(_iter_elem, typeof(itr), typeof(st))
# (Through Julia's `iterate`, the state's type changes as the iteration ends.)
_mapped_eltype(itr, st::_Iterated) = Core.return_type(_iterate_first, typeof(itr))
_iterate_first(itr) = (iterate(itr)::Tuple)[1]
# What `collect` makes a vector of: a type iterated through `iterate` gives its `eltype`.
_collected_eltype(itr, st) = _mapped_eltype(itr, st)
_collected_eltype(itr, st::_Iterated) = eltype(typeof(itr))
function map(f, itr)
    st = iterate_start(itr)
    _map_iter(f, itr, st, Core.return_type(f, _mapped_eltype(itr, st)))
end
collect(a::Array) = copy(a)
function collect(itr)
    st = iterate_start(itr)
    _map_iter(identity, itr, st, _collected_eltype(itr, st))
end
# `f` of each element from state `st` on, into a `Vector{T}`.
function _map_iter(f, itr, st, ::Type{T}) where {T}
    out = Vector{T}(undef, 0)
    while !iterate_done(itr, st)
        x, st = iterate_next(itr, st)
        push!(out, f(x))
    end
    out
end
# A tuple collects into a vector of its elements' join (`collect((1, 2.0))` is `Real[1, 2.0]`).
function collect(t::Tuple)
    out = Vector{eltype(t)}(undef, length(t))
    for k in 1:length(t)
        out[k] = t[k]
    end
    out
end
collect(t::NamedTuple) = collect(Tuple(t))
any(itr) = any(identity, itr)
all(itr) = all(identity, itr)
function map!(f, dest::Array, a::Array)
    for i in 1:min(length(dest), length(a))
        dest[i] = f(a[i])
    end
    dest
end
function map!(f, dest::Array, a::Array, b::Array)
    for i in 1:min(length(dest), length(a), length(b))
        dest[i] = f(a[i], b[i])
    end
    dest
end
function foreach(f, itr)
    for x in itr
        f(x)
    end
    nothing
end
function foreach(f, a, b)
    for (x, y) in zip(a, b)
        f(x, y)
    end
    nothing
end
mapreduce(f, op, itr) = _mapreduce_iter(f, op, itr)
_mapreduce_iter(f, op, itr) = _mapfold_first(f, op, itr)
function _mapfold_first(f, op, itr)
    st = iterate_start(itr)
    if iterate_done(itr, st)
        throw(ArgumentError("reducing over an empty collection is not allowed"))
    end
    x, st = iterate_next(itr, st)
    acc = f(x)
    while !iterate_done(itr, st)
        x, st = iterate_next(itr, st)
        acc = op(acc, f(x))
    end
    acc
end
# The sum of `f` over a float array of `_BLANES_MIN` elements or more, where `f` returns the
# array's element type, goes through `_mapsum_fresh`: a fold, as any other; reverse mode's
# default context differentiates it as `_mapsum_ad`, a broadcast into a new array (whose rule
# computes each element's partial derivatives in its loop, saving nothing per element) summed
# in the same order, so the same value. (With `mooncake bench`, 1024 elements: as fast as
# differentiating the fold where `f` is smooth, 15% faster where it branches.)
function _mapreduce_iter(f, op::typeof(+), a::Array{<:_MapFloat})
    _lanes_take(f, a) && return _mapsum_fresh(f, a)
    _mapfold_first(f, op, a)
end
_mapsum_fresh(f, a) = _mapfold_first(f, +, a)
_mapsum_ad(f, a) = sum(_bfill_fresh!(f, similar(a), a))
reduce(op, itr) = mapreduce(identity, op, itr)
# Folds in order from the left, `op(op(x1, x2), x3)`, and from the right, `op(x1, op(x2, x3))`,
# from `init` when given.
function mapfoldl(f, op, itr; init = _noinit)
    init === _noinit && return _mapreduce_iter(f, op, itr)
    acc = init
    for x in itr
        acc = op(acc, f(x))
    end
    acc
end
foldl(op, itr; init = _noinit) = mapfoldl(identity, op, itr; init = init)
function mapfoldr(f, op, itr; init = _noinit)
    v = collect(itr)
    n = length(v)
    if init === _noinit
        n == 0 && throw(ArgumentError("reducing over an empty collection is not allowed"))
        acc = f(v[n])
        n -= 1
    else
        acc = init
    end
    for i in n:-1:1
        acc = op(f(v[i]), acc)
    end
    acc
end
foldr(op, itr; init = _noinit) = mapfoldr(identity, op, itr; init = init)

# Running folds: `accumulate(+, x) == cumsum(x)`; element `i` is the fold of `x[1:i]` (from
# `init` when given).
function accumulate(op, v::AbstractVector; dims::Int64 = 1, init = _noinit)
    dims == 1 || return _accumulate_alone(op, v, dims, init)
    n = length(v)
    n == 0 && return similar(v, 0)
    first = init === _noinit ? v[1] : op(init, v[1])
    T = init === _noinit ? typeof(op(first, first)) : typeof(first)
    accumulate!(op, Vector{T}(undef, n), v; init = init)
end
# Along a dimension of a matrix: down its columns (`dims = 1`), along its rows (`dims = 2`),
# each element alone (its first-element value) along any other (also `cumsum`/`cumprod`).
function accumulate(op, A::AbstractMatrix; dims::Int64, init = _noinit)
    dims >= 1 || throw(ArgumentError(string("dimension must be ≥ 1, got ", dims)))
    z = isempty(A) ? zero(eltype(A)) : A[1]
    T = init === _noinit ? typeof(op(z, z)) : typeof(op(init, z))
    out = similar(A, T)
    for j in 1:size(A, 2), i in 1:size(A, 1)
        if dims == 1 && i > 1
            out[i, j] = op(out[i - 1, j], A[i, j])
        elseif dims == 2 && j > 1
            out[i, j] = op(out[i, j - 1], A[i, j])
        else
            out[i, j] = init === _noinit ? convert(T, A[i, j]) : op(init, A[i, j])
        end
    end
    out
end
# Along a dimension of an array of any rank: in memory order, the previous element along
# `dims` is `stride` places back.
function accumulate(op, A::AbstractArray; dims::Int64, init = _noinit)
    dims >= 1 || throw(ArgumentError(string("dimension must be ≥ 1, got ", dims)))
    z = isempty(A) ? zero(eltype(A)) : A[1]
    T = init === _noinit ? typeof(op(z, z)) : typeof(op(init, z))
    out = similar(A, T)
    stride = 1
    for d in 1:min(dims - 1, ndims(A))
        stride *= size(A, d)
    end
    n = dims <= ndims(A) ? size(A, dims) : 1
    for k in 1:length(A)
        if mod(div(k - 1, stride), n) > 0
            out[k] = op(out[k - stride], A[k])
        else
            out[k] = init === _noinit ? convert(T, A[k]) : op(init, A[k])
        end
    end
    out
end
# A vector along a dimension past its first: each element alone.
function _accumulate_alone(op, v::AbstractVector, dims::Int64, init)
    dims >= 1 || throw(ArgumentError(string("dimension must be ≥ 1, got ", dims)))
    isempty(v) && return similar(v)
    T = init === _noinit ? typeof(op(v[1], v[1])) : typeof(op(init, v[1]))
    [init === _noinit ? convert(T, x) : op(init, x) for x in v]
end
function accumulate!(op, out::AbstractVector, v::AbstractVector; init = _noinit)
    length(out) == length(v) || throw(DimensionMismatch("shape of B must match A"))
    n = length(v)
    n == 0 && return out
    acc = init === _noinit ? v[1] : op(init, v[1])
    out[1] = acc
    for i in 2:n
        acc = op(acc, v[i])
        out[i] = acc
    end
    out
end
sum(f, itr) = mapreduce(f, +, itr)
prod(f, itr) = mapreduce(f, *, itr)
maximum(f, itr) = mapreduce(f, max, itr)
minimum(f, itr) = mapreduce(f, min, itr)

# `isequal`: `==`, except that NaN equals NaN and -0.0 differs from 0.0 (numbers of different
# types compared after promotion), element by element for arrays of one shape.
isequal(x, y) = x == y
isequal(x::Real, y::Real) = isequal(promote(x, y)...)
isequal(x::T, y::T) where {T<:Real} = x == y
isequal(x::T, y::T) where {T<:AbstractFloat} = (isnan(x) & isnan(y)) | (x === y)
function isequal(a::AbstractArray, b::AbstractArray)
    size(a) == size(b) || return false
    for i in 1:length(a)
        isequal(a[i], b[i]) || return false
    end
    true
end

# A function with one of its two arguments fixed: Base's `Fix1` and `Fix2`, which `==(x)`,
# `isequal(x)`, `<(x)` and the other comparisons, and `in(collection)` make.
struct Fix1{F, T} <: Function
    f::F
    x::T
end
struct Fix2{F, T} <: Function
    f::F
    x::T
end
(f::Fix1)(y) = f.f(f.x, y)
(f::Fix2)(y) = f.f(y, f.x)
==(x) = Fix2(==, x)
!=(x) = Fix2(!=, x)
isequal(x) = Fix2(isequal, x)
<(x) = Fix2(<, x)
<=(x) = Fix2(<=, x)
>(x) = Fix2(>, x)
>=(x) = Fix2(>=, x)
in(x) = Fix2(in, x)

# Reductions of a generator over one iterator, `sum(f(x) for x in itr if p(x))` (the lowering
# calls these with the generator's body and condition as functions): the generator is iterated
# once, in order, and folded as it goes, as Julia's `mapfoldl` does; `any`/`all` stop at the
# first decisive element. A generator's element type is unknown to Julia, so reducing an
# empty one without an identity is its ArgumentError.
_gen_true(x) = true
_gen_first(op, v) = v
_gen_first(::typeof(+), v::Bool) = Int64(v)
_gen_fold(op, f, p, itr) = _gen_fold_iter(op, f, p, itr)
# (Over a big float array with no condition: the sum of `f` above, which folds in the same order.)
function _gen_fold(op::typeof(+), f, p::typeof(_gen_true), a::Array{<:_MapFloat})
    _lanes_take(f, a) && return _mapsum_fresh(f, a)
    _gen_fold_iter(op, f, p, a)
end
function _gen_fold_iter(op, f, p, itr)
    st = iterate_start(itr)
    while !iterate_done(itr, st)
        x, st = iterate_next(itr, st)
        if p(x)
            acc = _gen_first(op, f(x))
            while !iterate_done(itr, st)
                x, st = iterate_next(itr, st)
                if p(x)
                    acc = op(acc, f(x))
                end
            end
            return acc
        end
    end
    throw(ArgumentError("reducing over an empty collection of unknown element type is not allowed.\nYou may be able to prevent this error by supplying an `init` value to the reducer."))
end
_gen_any(f, p, itr) = _any_iter(x -> p(x) && f(x), itr)
_gen_all(f, p, itr) = _all_iter(x -> !p(x) || f(x), itr)
_gen_count(f, p, itr) = count(x -> p(x) && f(x), itr)
∉(x, itr) = !in(x, itr)
