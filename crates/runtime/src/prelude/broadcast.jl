# Broadcasting. The lowering turns a fused dotted expression (`f.(x) .+ 2 .* y`, `@. ...`) into
# one call `broadcast(fused, args...)` (`broadcast!(fused, dest, args...)` for `.=`), where
# `fused` is a closure applying the whole expression to one element of each argument: one
# loop, no temporaries. Arguments are scalars or arrays of any rank (ranges are collected);
# dimensions of length 1 expand, as in Julia. The element type is `fused`'s inferred result
# type.

eltype(x::Number) = typeof(x)
_bprep(x::AbstractRange) = collect(x)
_bprep(x) = x
# Strings, characters, symbols, types and `nothing` are scalars, as Julia's `broadcastable`
# makes them (`parse.(Float64, strs)`, `string.("x", 1:3)`): wrapped in a `Ref`.
const _BScalar = Union{String,SubString{String},Char,Symbol,Nothing,Function,Pair}
_bprep(x::_BScalar) = Ref(x)
_bprep(::Type{T}) where {T} = Ref(T)
_bunref(x::_BScalar) = x
_bd1(x::Number) = 1
_bd1(x::AbstractArray) = size(x, 1)
_bd2(x::Number) = 1
_bd2(x::AbstractVector) = 1
_bd2(x::AbstractArray) = size(x, 2)
_bd3(x::Number) = 1
_bd3(x::AbstractVector) = 1
_bd3(x::AbstractMatrix) = 1
function _bcomb(a::Int64, b::Int64)
    if a == b || b == 1
        return a
    elseif a == 1
        return b
    end
    throw(DimensionMismatch(string("arrays could not be broadcast to a common size; got a dimension with lengths ", a, " and ", b)))
end
# An argument's stride along dimension 1, 2 or 3: 0 where it is expanded (size 1), else 1; the
# loops below index it at `1 + (i - 1) * stride` (no branch per element).
_bs1(x::Number) = 0
_bs1(x::AbstractArray) = size(x, 1) == 1 ? 0 : 1
_bs2(x::Number) = 0
_bs2(x::AbstractVector) = 0
_bs2(x::AbstractArray) = size(x, 2) == 1 ? 0 : 1
_bs3(x::Number) = 0
_bs3(x::AbstractVector) = 0
_bs3(x::AbstractMatrix) = 0
_bs3(x::AbstractArray) = _bd3(x) == 1 ? 0 : 1
_bat(x::Number, i, j, l) = x
# A `Ref` is one scalar: its contents in every call.
_bd1(r::RefValue) = 1
_bd2(r::RefValue) = 1
_bd3(r::RefValue) = 1
_bs1(r::RefValue) = 0
_bs2(r::RefValue) = 0
_bs3(r::RefValue) = 0
_bat(r::RefValue, i, j, l) = r.x
_bmatch(dest::AbstractArray, r::RefValue) = nothing
_bproto(a::RefValue, b) = b
_bproto(a, b::RefValue) = a
_bproto(a::RefValue, b::RefValue) = a
_bat(x::AbstractVector, i, j, l) = x[i]
# A strided one-dimensional view: its parent's element, the view's own range check left out
# (the shapes were matched before the loop; the parent's check stays).
_bat(V::SubArray{T,1,P,I,true}, i, j, l) where {T,P<:Array,I} = Core.arrayref(V.parent, V.offset1 + V.stride1 * i)
_bat(x::AbstractMatrix, i, j, l) = x[i, j]
_bat(x::AbstractArray{T,3}, i, j, l) where {T} = x[i, j, l]
# A value with the result's number of dimensions: the most any argument has.
_bproto(a::Number, b::Number) = a
_bproto(a::AbstractArray, b::Number) = a
_bproto(a::Number, b::AbstractArray) = b
_bproto(a::AbstractVector, b::AbstractVector) = a
_bproto(a::AbstractVector, b::AbstractMatrix) = b
_bproto(a::AbstractMatrix, b::AbstractVector) = a
_bproto(a::AbstractMatrix, b::AbstractMatrix) = a
_bproto(a::AbstractArray{T,3}, b::AbstractArray) where {T} = a
_bproto(a::AbstractVector, b::AbstractArray{T,3}) where {T} = b
_bproto(a::AbstractMatrix, b::AbstractArray{T,3}) where {T} = b
_bproto(a::AbstractArray{S,3}, b::AbstractArray{T,3}) where {S,T} = a
_balloc(p::AbstractVector, ::Type{T}, d1, d2, d3) where {T} = Vector{T}(undef, d1)
_balloc(p::AbstractMatrix, ::Type{T}, d1, d2, d3) where {T} = Matrix{T}(undef, d1, d2)
_balloc(p::AbstractArray{S,3}, ::Type{T}, d1, d2, d3) where {S,T} = Array{T,3}(undef, d1, d2, d3)
# (Arrays of more than three dimensions take the paths below.)
_bd3(x::AbstractArray) = size(x, 3)
# Each argument of `broadcast!` must fit the destination's shape (extent equal, or 1), with
# Julia's messages.
_bmatch(dest::AbstractArray, x::Number) = nothing
function _bmatch(dest::AbstractArray, x::AbstractArray)
    if (ndims(dest) < 2 && _bd2(x) != 1) || (ndims(dest) < 3 && _bd3(x) != 1)
        throw(DimensionMismatch("cannot broadcast array to have fewer non-singleton dimensions"))
    end
    if !(_bd1(x) == _bd1(dest) || _bd1(x) == 1) || !(_bd2(x) == _bd2(dest) || _bd2(x) == 1) || !(_bd3(x) == _bd3(dest) || _bd3(x) == 1)
        throw(DimensionMismatch("array could not be broadcast to match destination"))
    end
end
# As Julia's `broadcast!`, an argument that may share memory with the destination (a view of
# the same array, a reshape of it) is copied first, unless it is the destination itself, so
# that every element is computed from the argument's values before the call.
_bunalias(dest, x) = x
function _bunalias(dest::AbstractArray, x::AbstractArray)
    if x === dest || !_mightalias(dest, x)
        return x
    end
    copy(x)
end
# `A[I...] = X` reads `X` as it was before the assignment (Julia's `unalias`).
_unalias(dest, x) = _mightalias(dest, x) ? copy(x) : x
_mightalias(a, b) = false
_mightalias(a::Array, b::Array) = Core.same_memory(a, b)
_mightalias(a::SubArray, b) = _mightalias(a.parent, b)
_mightalias(a::Array, b::SubArray) = _mightalias(a, b.parent)

# Operands of a fused broadcast beyond the fourth are packed: one array of tuples of their
# elements (broadcast to their common shape), or one scalar tuple when all are scalars.
# Among scalars and tuples only, the pack is a tuple of packs (one per position).
_bpack(xs...) = _bpack_wrap(broadcast(tuple, xs...), _bany_tuple(xs...))
_bpack_wrap(t::Tuple, over_tuples::Bool) = over_tuples ? t : Ref(t)
_bpack_wrap(a::AbstractArray, over_tuples::Bool) = a
_bany_tuple() = false
_bany_tuple(x, rest...) = _bany_tuple(rest...)
_bany_tuple(x::Tuple, rest...) = true
# A pack is a new array: it shares memory with nothing.
_bunalias(dest::AbstractArray, x::Array{T}) where {T<:Tuple} = x

# Tuples broadcast as Julia's do: among scalars and other tuples the result is a tuple, as long
# as the longest (a tuple of one element expands, as a dimension of length 1 does:
# `(1, 2) .+ (3, 4) == (4, 6)`, `(1.0, 2.0) .* 3.0 == (3.0, 6.0)`); among arrays a tuple is a
# vector of its elements (`[1, 2] .+ (10, 20) == [11, 22]`).
_bprep(x::Tuple) = collect(x)
const _BScalarArg = Union{Number,RefValue,_BScalar}
const _BTupleArg = Union{Tuple,Number,RefValue,_BScalar}
_btkeys(x) = (1,)
_btkeys(t::Tuple) = _btkeys_upto(t...)
_btkeys_upto() = ()
_btkeys_upto(xs...) = (_btkeys_upto(_tuple_front(xs...)...)..., length(xs))
_tuple_front(x) = ()
_tuple_front(x, rest...) = (x, _tuple_front(rest...)...)
# The result's positions (`(1, ..., n)`), decided from the operands' types: equal lengths, or
# one of them 1.
_btkeys_comb(a::NTuple{N,Int64}, b::NTuple{N,Int64}) where {N} = a
_btkeys_comb(a::Tuple, b::Tuple{Int64}) = a
_btkeys_comb(a::Tuple{Int64}, b::Tuple) = b
_btkeys_comb(a::Tuple{Int64}, b::Tuple{Int64}) = a
_btkeys_comb(a::Tuple, b::Tuple) = throw(DimensionMismatch(string("arrays could not be broadcast to a common size; got a dimension with lengths ", length(a), " and ", length(b))))
_btkeys_all(x) = _btkeys(x)
_btkeys_all(x, rest...) = _btkeys_comb(_btkeys(x), _btkeys_all(rest...))
# One call per position, each operand's element taken from its front (a tuple of one element
# and a scalar stay as they are), so every element keeps its own type.
_btmap(f, ks::Tuple{}, xs::Tuple) = ()
_btmap(f, ks::Tuple, xs::Tuple) = (f(map(_bthead, xs)...), _btmap(f, _tuple_tail(ks...), map(_bttail, xs))...)
_bthead(x) = _bunref(x)
_bthead(t::Tuple) = t[1]
_bttail(x) = x
_bttail(t::Tuple{Any}) = t
_bttail(t::Tuple) = _tuple_tail(t...)
# (The first tuple's position picks the method, so no two of them, nor the scalars' below,
# apply to the same arguments.)
_btuple(f, xs...) = _btmap(f, _btkeys_all(xs...), xs)
broadcast(f, a::Tuple) = _btuple(f, a)
broadcast(f, a::Tuple, b::_BTupleArg) = _btuple(f, a, b)
broadcast(f, a::_BScalarArg, b::Tuple) = _btuple(f, a, b)
broadcast(f, a::Tuple, b::_BTupleArg, c::_BTupleArg) = _btuple(f, a, b, c)
broadcast(f, a::_BScalarArg, b::Tuple, c::_BTupleArg) = _btuple(f, a, b, c)
broadcast(f, a::_BScalarArg, b::_BScalarArg, c::Tuple) = _btuple(f, a, b, c)
broadcast(f, a::Tuple, b::_BTupleArg, c::_BTupleArg, e::_BTupleArg) = _btuple(f, a, b, c, e)
broadcast(f, a::_BScalarArg, b::Tuple, c::_BTupleArg, e::_BTupleArg) = _btuple(f, a, b, c, e)
broadcast(f, a::_BScalarArg, b::_BScalarArg, c::Tuple, e::_BTupleArg) = _btuple(f, a, b, c, e)
broadcast(f, a::_BScalarArg, b::_BScalarArg, c::_BScalarArg, e::Tuple) = _btuple(f, a, b, c, e)
# Julia reserves broadcasting over named tuples (and dictionaries).
_bprep(x::NamedTuple) = throw(ArgumentError("broadcasting over dictionaries and `NamedTuple`s is reserved"))
_bprep(x::AbstractDict) = throw(ArgumentError("broadcasting over dictionaries and `NamedTuple`s is reserved"))
# Sets, and the keys and values of a dictionary, broadcast as the vectors they collect to.
_bprep(x::Union{AbstractSet,ValueIterator}) = collect(x)
_btkeys(x::NamedTuple) = _bprep(x)

# Only scalars (numbers and `Ref`s): one call, its result unwrapped as Julia's is.
_bunref(r::RefValue) = r.x
_bunref(x::Number) = x
broadcast(f, a::Union{Number,RefValue,_BScalar}) = f(_bunref(a))
broadcast(f, a::Union{Number,RefValue,_BScalar}, b::Union{Number,RefValue,_BScalar}) = f(_bunref(a), _bunref(b))
broadcast(f, a::Union{Number,RefValue,_BScalar}, b::Union{Number,RefValue,_BScalar}, c::Union{Number,RefValue,_BScalar}) = f(_bunref(a), _bunref(b), _bunref(c))
broadcast(f, a::Union{Number,RefValue,_BScalar}, b::Union{Number,RefValue,_BScalar}, c::Union{Number,RefValue,_BScalar}, d::Union{Number,RefValue,_BScalar}) = f(_bunref(a), _bunref(b), _bunref(c), _bunref(d))
# When inference gives no concrete element type, the result's element type is the join of
# its elements' types, as Julia's broadcast narrows it (`Real[0.5, 0]`, not `Any[...]`). A
# concrete type is recognised by the first element having exactly that type (for arrays of
# numbers, known without reading it).
_bnarrow(out::AbstractArray{<:Union{Float64,Float32,Int64,Bool}}) = out
function _bnarrow(out::AbstractArray{T}) where {T}
    isempty(out) && return out
    S = typeof(out[1])
    S === T && return out
    for k in 2:length(out)
        S = Core.promote_typejoin(S, typeof(out[k]))
    end
    S === T && return out
    narrowed = similar(out, S)
    for k in 1:length(out)
        narrowed[k] = out[k]
    end
    narrowed
end
# Arrays of more than three dimensions. Four-dimensional ones broadcast as three-dimensional
# ones whose third dimension runs over both trailing ones (reshapes sharing memory) when every
# four-dimensional argument has the same last two extents and every other argument at most two
# dimensions; the result is reshaped back. Every other mix, and any rank, takes the general
# path below.
_bhigh() = false
_bhigh(x, rest...) = _bhigh(rest...)
_bhigh(x::AbstractArray{T,N}, rest...) where {T,N} = true
_bhigh(x::AbstractVector, rest...) = _bhigh(rest...)
_bhigh(x::AbstractMatrix, rest...) = _bhigh(rest...)
_bhigh(x::AbstractArray{T,3}, rest...) where {T} = _bhigh(rest...)
_btrail(x) = nothing
_btrail(x::AbstractArray{T,4}) where {T} = (size(x, 3), size(x, 4))
# The last two extents every four-dimensional argument shares, or `nothing` when the
# arguments cannot be folded.
function _btrail_common(xs...)
    t = (0, 0)
    found = false
    for x in xs
        s = _btrail(x)
        if s === nothing
            if ndims(x) > 2
                return nothing
            end
        elseif !found
            t = s
            found = true
        elseif t != s
            return nothing
        end
    end
    found ? t : nothing
end
_bfold(x, n::Int64) = x
_bfold(x::AbstractArray{T,4}, n::Int64) where {T} = reshape(x, size(x, 1), size(x, 2), n)
_bunfold(out::AbstractArray{T,3}, t) where {T} = reshape(out, size(out, 1), size(out, 2), t[1], t[2])
function _b4(f, xs...)
    t = _btrail_common(xs...)
    t === nothing && return _bN(f, xs...)
    n = t[1] * t[2]
    _bunfold(broadcast(f, map(x -> _bfold(x, n), xs)...), t)
end
function _b4!(f, dest::AbstractArray{T,4}, xs...) where {T}
    t = _btrail_common(dest, xs...)
    t === nothing && return _bN!(f, dest, xs...)
    n = t[1] * t[2]
    broadcast!(f, _bfold(dest, n), map(x -> _bfold(x, n), xs)...)
    dest
end
broadcast!(f, dest::AbstractArray{T,4}) where {T} = _bfill!(f, dest)
broadcast!(f, dest::AbstractArray{T,4}, a) where {T} = _b4!(f, dest, a)
broadcast!(f, dest::AbstractArray{T,4}, a, b) where {T} = _b4!(f, dest, a, b)
broadcast!(f, dest::AbstractArray{T,4}, a, b, c) where {T} = _b4!(f, dest, a, b, c)
broadcast!(f, dest::AbstractArray{T,4}, a, b, c, e) where {T} = _b4!(f, dest, a, b, c, e)
# The general path, for arguments of any rank: the result's extents are the arguments'
# combined per dimension (a missing trailing dimension counts as 1), and each argument is read
# at the result's subscripts with its expanded ones set to 1.
_bshape(x) = ()
_bshape(x::AbstractArray) = size(x)
_bshape_comb(a::Tuple{}, b::Tuple{}) = ()
_bshape_comb(a::Tuple, b::Tuple{}) = a
_bshape_comb(a::Tuple{}, b::Tuple) = b
_bshape_comb(a::Tuple, b::Tuple) = (_bcomb(a[1], b[1]), _bshape_comb(_tuple_tail(a...), _tuple_tail(b...))...)
_bshape_all(x) = _bshape(x)
_bshape_all(x, rest...) = _bshape_comb(_bshape(x), _bshape_all(rest...))
_bfirst(I::Tuple{}) = 1
_bfirst(I::Tuple) = I[1]
_bsub(s::Tuple{}, I::Tuple) = ()
_bsub(s::Tuple, I::Tuple) = (s[1] == 1 ? 1 : _bfirst(I), _bsub(_tuple_tail(s...), _tuple_tail(I...))...)
_bat_nd(x, I::Tuple) = x
_bat_nd(r::RefValue, I::Tuple) = r.x
_bat_nd(x::AbstractArray, I::Tuple) = x[_bsub(size(x), I)...]
function _bN_fill!(f, dest, xs::Tuple)
    for c in CartesianIndices(dest)
        dest[c] = f(map(x -> _bat_nd(x, c.I), xs)...)
    end
    dest
end
function _bN(f, xs0...)
    xs = map(_bprep, xs0)
    T = Core.return_type(f, map(eltype, xs)...)
    _bnarrow(_bN_fill!(f, _nd_alloc(T, _bshape_all(xs...)), xs))
end
# An argument of `broadcast!` fits the destination when each extent equals the destination's
# or is 1 (Julia's messages otherwise).
_bmatch_nd(dest, x) = nothing
function _bmatch_nd(dest::AbstractArray, x::AbstractArray)
    for d in (ndims(dest) + 1):ndims(x)
        size(x, d) == 1 || throw(DimensionMismatch("cannot broadcast array to have fewer non-singleton dimensions"))
    end
    for d in 1:min(ndims(dest), ndims(x))
        if !(size(x, d) == size(dest, d) || size(x, d) == 1)
            throw(DimensionMismatch("array could not be broadcast to match destination"))
        end
    end
end
function _bN!(f, dest::AbstractArray, xs...)
    ys = map(x -> _bunalias(dest, _bprep(x)), xs)
    map(y -> _bmatch_nd(dest, y), ys)
    _bN_fill!(f, dest, ys)
end
function broadcast(f, a0)
    _bhigh(a0) && return _b4(f, a0)
    a = _bprep(a0)
    d1 = _bd1(a)
    d2 = _bd2(a)
    d3 = _bd3(a)
    T = Core.return_type(f, eltype(a))
    out = _balloc(a, T, d1, d2, d3)
    _bnarrow(_bfill_out!(f, out, a))
end
function broadcast(f, a0, b0)
    _bhigh(a0, b0) && return _b4(f, a0, b0)
    a, b = _bprep(a0), _bprep(b0)
    d1 = _bcomb(_bd1(a), _bd1(b))
    d2 = _bcomb(_bd2(a), _bd2(b))
    d3 = _bcomb(_bd3(a), _bd3(b))
    T = Core.return_type(f, eltype(a), eltype(b))
    out = _balloc(_bproto(a, b), T, d1, d2, d3)
    _bnarrow(_bfill_out!(f, out, a, b))
end
function broadcast(f, a0, b0, c0)
    _bhigh(a0, b0, c0) && return _b4(f, a0, b0, c0)
    a, b, c = _bprep(a0), _bprep(b0), _bprep(c0)
    d1 = _bcomb(_bcomb(_bd1(a), _bd1(b)), _bd1(c))
    d2 = _bcomb(_bcomb(_bd2(a), _bd2(b)), _bd2(c))
    d3 = _bcomb(_bcomb(_bd3(a), _bd3(b)), _bd3(c))
    T = Core.return_type(f, eltype(a), eltype(b), eltype(c))
    out = _balloc(_bproto(_bproto(a, b), c), T, d1, d2, d3)
    _bnarrow(_bfill_out!(f, out, a, b, c))
end
function broadcast(f, a0, b0, c0, e0)
    _bhigh(a0, b0, c0, e0) && return _b4(f, a0, b0, c0, e0)
    a, b, c, e = _bprep(a0), _bprep(b0), _bprep(c0), _bprep(e0)
    d1 = _bcomb(_bcomb(_bcomb(_bd1(a), _bd1(b)), _bd1(c)), _bd1(e))
    d2 = _bcomb(_bcomb(_bcomb(_bd2(a), _bd2(b)), _bd2(c)), _bd2(e))
    d3 = _bcomb(_bcomb(_bcomb(_bd3(a), _bd3(b)), _bd3(c)), _bd3(e))
    T = Core.return_type(f, eltype(a), eltype(b), eltype(c), eltype(e))
    out = _balloc(_bproto(_bproto(_bproto(a, b), c), e), T, d1, d2, d3)
    _bnarrow(_bfill_out!(f, out, a, b, c, e))
end
# `.=` into a value that is not an array (`x[1] .= 2` for a vector of numbers).
_unwritable(dest) = throw(ArgumentError(string("cannot broadcast-assign (`.=`) into a value of type ", typeof(dest))))
broadcast!(f, dest) = _unwritable(dest)
broadcast!(f, dest, a) = _unwritable(dest)
broadcast!(f, dest, a, b) = _unwritable(dest)
broadcast!(f, dest, a, b, c) = _unwritable(dest)
broadcast!(f, dest, a, b, c, e) = _unwritable(dest)
broadcast!(f, dest::AbstractArray) = _bfill!(f, dest)
function broadcast!(f, dest::AbstractArray, a)
    _bhigh(dest, a) && return _bN!(f, dest, a)
    _bfill!(f, dest, _bunalias(dest, _bprep(a)))
end
function broadcast!(f, dest::AbstractArray, a, b)
    _bhigh(dest, a, b) && return _bN!(f, dest, a, b)
    _bfill!(f, dest, _bunalias(dest, _bprep(a)), _bunalias(dest, _bprep(b)))
end
function broadcast!(f, dest::AbstractArray, a, b, c)
    _bhigh(dest, a, b, c) && return _bN!(f, dest, a, b, c)
    _bfill!(f, dest, _bunalias(dest, _bprep(a)), _bunalias(dest, _bprep(b)), _bunalias(dest, _bprep(c)))
end
function broadcast!(f, dest::AbstractArray, a, b, c, e)
    _bhigh(dest, a, b, c, e) && return _bN!(f, dest, a, b, c, e)
    _bfill!(f, dest, _bunalias(dest, _bprep(a)), _bunalias(dest, _bprep(b)), _bunalias(dest, _bprep(c)), _bunalias(dest, _bprep(e)))
end
# `broadcast` fills an array it has just made. A matrix or higher array of `_BLANES_MIN`
# elements or more is filled through `_bfill_fresh!`, for which reverse mode's default context
# computes the elements' partial derivatives in the same loop (forward mode with a lane per
# array or float argument) and whose pullback multiplies by them, instead of differentiating
# the loop. That costs a few array allocations per call, which smaller broadcasts do not win
# back (measured with `mooncake bench`: with one differentiable argument even at 128 elements
# and ahead from 256, with two about even up to a thousand and ahead on a 64×64 matrix).
# Vectors, often small states carried through loops (whose size the compiler learns only
# once it has inlined the loop, to keep them out of the heap), and small arrays always take
# the loop.
const _BLANES_MIN = 1024
_bfill_out!(f, dest::AbstractVector, a) = _bfill!(f, dest, a)
_bfill_out!(f, dest::AbstractVector, a, b) = _bfill!(f, dest, a, b)
_bfill_out!(f, dest::AbstractVector, a, b, c) = _bfill!(f, dest, a, b, c)
_bfill_out!(f, dest::AbstractVector, a, b, c, e) = _bfill!(f, dest, a, b, c, e)
function _bfill_out!(f, dest, a)
    length(dest) >= _BLANES_MIN && return _bfill_fresh!(f, dest, a)
    _bfill_nd!(f, dest, a)
end
function _bfill_out!(f, dest, a, b)
    length(dest) >= _BLANES_MIN && return _bfill_fresh!(f, dest, a, b)
    _bfill_nd!(f, dest, a, b)
end
function _bfill_out!(f, dest, a, b, c)
    length(dest) >= _BLANES_MIN && return _bfill_fresh!(f, dest, a, b, c)
    _bfill_nd!(f, dest, a, b, c)
end
function _bfill_out!(f, dest, a, b, c, e)
    length(dest) >= _BLANES_MIN && return _bfill_fresh!(f, dest, a, b, c, e)
    _bfill_nd!(f, dest, a, b, c, e)
end
_bfill_fresh!(f, dest, a) = _bfill_nd!(f, dest, a)
_bfill_fresh!(f, dest, a, b) = _bfill_nd!(f, dest, a, b)
_bfill_fresh!(f, dest, a, b, c) = _bfill_nd!(f, dest, a, b, c)
_bfill_fresh!(f, dest, a, b, c, e) = _bfill_nd!(f, dest, a, b, c, e)
# A matrix or higher array whose array arguments all have its shape (nothing expanded) is
# filled in one loop over linear indices; any other, through the loops over each dimension.
# The elements are computed in the same order either way.
_bsame(dest, x) = false
_bsame(dest, x::Union{Number,RefValue}) = true
_bsame(dest, x::Array) = size(x) == size(dest)
_blin(x::Number, k) = x
_blin(r::RefValue, k) = r.x
_blin(x::Array, k) = x[k]
function _bfill_nd!(f, dest, a)
    _bsame(dest, a) || return _bfill!(f, dest, a)
    for k in 1:length(dest)
        dest[k] = f(_blin(a, k))
    end
    dest
end
function _bfill_nd!(f, dest, a, b)
    (_bsame(dest, a) && _bsame(dest, b)) || return _bfill!(f, dest, a, b)
    for k in 1:length(dest)
        dest[k] = f(_blin(a, k), _blin(b, k))
    end
    dest
end
function _bfill_nd!(f, dest, a, b, c)
    (_bsame(dest, a) && _bsame(dest, b) && _bsame(dest, c)) || return _bfill!(f, dest, a, b, c)
    for k in 1:length(dest)
        dest[k] = f(_blin(a, k), _blin(b, k), _blin(c, k))
    end
    dest
end
function _bfill_nd!(f, dest, a, b, c, e)
    (_bsame(dest, a) && _bsame(dest, b) && _bsame(dest, c) && _bsame(dest, e)) || return _bfill!(f, dest, a, b, c, e)
    for k in 1:length(dest)
        dest[k] = f(_blin(a, k), _blin(b, k), _blin(c, k), _blin(e, k))
    end
    dest
end
# The loops: `dest`'s elements in memory order, each argument read at the matching (or
# expanded) position.
function _bfill!(f, dest)
    for k in 1:length(dest)
        dest[k] = f()
    end
    dest
end
function _bfill!(f, dest, a)
    d1, d2, d3 = _bd1(dest), _bd2(dest), _bd3(dest)
    _bmatch(dest, a)
    a1, a2, a3 = _bs1(a), _bs2(a), _bs3(a)
    k = 0
    for l in 1:d3, j in 1:d2, i in 1:d1
        k += 1
        dest[k] = f(_bat(a, 1 + (i - 1) * a1, 1 + (j - 1) * a2, 1 + (l - 1) * a3))
    end
    dest
end
function _bfill!(f, dest, a, b)
    d1, d2, d3 = _bd1(dest), _bd2(dest), _bd3(dest)
    _bmatch(dest, a)
    _bmatch(dest, b)
    a1, a2, a3 = _bs1(a), _bs2(a), _bs3(a)
    b1, b2, b3 = _bs1(b), _bs2(b), _bs3(b)
    k = 0
    for l in 1:d3, j in 1:d2, i in 1:d1
        k += 1
        dest[k] = f(_bat(a, 1 + (i - 1) * a1, 1 + (j - 1) * a2, 1 + (l - 1) * a3), _bat(b, 1 + (i - 1) * b1, 1 + (j - 1) * b2, 1 + (l - 1) * b3))
    end
    dest
end
function _bfill!(f, dest, a, b, c)
    d1, d2, d3 = _bd1(dest), _bd2(dest), _bd3(dest)
    _bmatch(dest, a)
    _bmatch(dest, b)
    _bmatch(dest, c)
    a1, a2, a3 = _bs1(a), _bs2(a), _bs3(a)
    b1, b2, b3 = _bs1(b), _bs2(b), _bs3(b)
    c1, c2, c3 = _bs1(c), _bs2(c), _bs3(c)
    k = 0
    for l in 1:d3, j in 1:d2, i in 1:d1
        k += 1
        dest[k] = f(_bat(a, 1 + (i - 1) * a1, 1 + (j - 1) * a2, 1 + (l - 1) * a3), _bat(b, 1 + (i - 1) * b1, 1 + (j - 1) * b2, 1 + (l - 1) * b3), _bat(c, 1 + (i - 1) * c1, 1 + (j - 1) * c2, 1 + (l - 1) * c3))
    end
    dest
end
function _bfill!(f, dest, a, b, c, e)
    d1, d2, d3 = _bd1(dest), _bd2(dest), _bd3(dest)
    _bmatch(dest, a)
    _bmatch(dest, b)
    _bmatch(dest, c)
    _bmatch(dest, e)
    a1, a2, a3 = _bs1(a), _bs2(a), _bs3(a)
    b1, b2, b3 = _bs1(b), _bs2(b), _bs3(b)
    c1, c2, c3 = _bs1(c), _bs2(c), _bs3(c)
    e1, e2, e3 = _bs1(e), _bs2(e), _bs3(e)
    k = 0
    for l in 1:d3, j in 1:d2, i in 1:d1
        k += 1
        dest[k] = f(_bat(a, 1 + (i - 1) * a1, 1 + (j - 1) * a2, 1 + (l - 1) * a3), _bat(b, 1 + (i - 1) * b1, 1 + (j - 1) * b2, 1 + (l - 1) * b3), _bat(c, 1 + (i - 1) * c1, 1 + (j - 1) * c2, 1 + (l - 1) * c3), _bat(e, 1 + (i - 1) * e1, 1 + (j - 1) * e2, 1 + (l - 1) * e3))
    end
    dest
end
