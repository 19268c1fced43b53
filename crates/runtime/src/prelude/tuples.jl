# Tuples: indexing, length, iteration.

length(t::Tuple) = Core.tuple_len(t)
getindex(t::Tuple, i::Int64) = Core.tuple_getindex(t, i)
iterate_start(t::Tuple) = 1
iterate_done(t::Tuple, i::Int64) = i > Core.tuple_len(t)
iterate_next(t::Tuple, i::Int64) = (Core.tuple_getindex(t, i), i + 1)
first(t::Tuple) = t[1]
# (By dispatch, so that inference knows the last element's type.)
last(t::Tuple) = _tuple_last(t...)
_tuple_last(x) = x
_tuple_last(x, ys...) = _tuple_last(ys...)
firstindex(t::Union{Tuple,NamedTuple}) = 1
lastindex(t::Union{Tuple,NamedTuple}) = length(t)
# The join of the elements' types (`Real` for `(1, 2.0)`), as Julia's `eltype` of a tuple.
eltype(t::Tuple) = _tuple_eltype(t...)
eltype(t::NamedTuple) = _tuple_eltype(t...)
_tuple_eltype() = Union{}
_tuple_eltype(x) = typeof(x)
_tuple_eltype(x, rest...) = Core.promote_typejoin(typeof(x), _tuple_eltype(rest...))
tuple(xs...) = xs
# `ntuple(f, n)`: the tuple `(f(1), ..., f(n))` (its length known only when it runs);
# `ntuple(f, Val(n))` the same, built by one call per element so that its length and each
# element's type are known when compiling.
function ntuple(f, n::Int64)
    n >= 0 || throw(ArgumentError(string("tuple length should be ≥ 0, got ", n)))
    ([f(i) for i in 1:n]...,)
end
ntuple(f, v::Val{N}) where {N} = _ntuple(f, v, ())
_ntuple(f, ::Val{N}, t::NTuple{N,Any}) where {N} = t
_ntuple(f, v::Val, t::Tuple) = _ntuple(f, v, (t..., f(length(t) + 1)))
# Tuples compare lexicographically (`isless` for sorting, `<` with `==` and `<`); a prefix is
# less than the longer tuple.
isless(a::Tuple{}, b::Tuple{}) = false
isless(a::Tuple{}, b::Tuple) = true
isless(a::Tuple, b::Tuple{}) = false
isless(a::Tuple, b::Tuple) = isequal(a[1], b[1]) ? isless(_tuple_tail(a...), _tuple_tail(b...)) : isless(a[1], b[1])
<(a::Tuple{}, b::Tuple{}) = false
<(a::Tuple{}, b::Tuple) = true
<(a::Tuple, b::Tuple{}) = false
<(a::Tuple, b::Tuple) = a[1] == b[1] ? _tuple_tail(a...) < _tuple_tail(b...) : a[1] < b[1]
<=(a::Tuple, b::Tuple) = (a < b) | (a == b)
# All elements but the first.
_tuple_tail() = ()
_tuple_tail(a, rest...) = rest
# Named tuples: indexed and iterated by position as tuples are; `keys` are the names.
length(t::NamedTuple) = Core.tuple_len(t)
isempty(t::NamedTuple) = Core.tuple_len(t) == 0
getindex(t::NamedTuple, i::Int64) = Core.tuple_getindex(t, i)
# `t[:name]`: the field of that name, found when the call runs.
getindex(t::NamedTuple, s::Symbol) = Core.tuple_getindex(t, _field_position(t, s))
function _field_position(t::NamedTuple, s::Symbol)
    ks = keys(t)
    for i in 1:length(ks)
        ks[i] === s && return i
    end
    error(string("FieldError: type NamedTuple has no field `", s, "`"))
end
iterate_start(t::NamedTuple) = 1
iterate_done(t::NamedTuple, i::Int64) = i > Core.tuple_len(t)
iterate_next(t::NamedTuple, i::Int64) = (Core.tuple_getindex(t, i), i + 1)
keys(t::NamedTuple) = fieldnames(typeof(t))
values(t::NamedTuple) = (t...,)
Tuple(t::NamedTuple) = (t...,)
haskey(t::NamedTuple, s::Symbol) = s in keys(t)
first(t::NamedTuple) = t[1]
# `map` over tuples gives a tuple, one call per element in order.
map(f, t::Tuple) = _tuple_map(f, t...)
eachindex(t::Tuple) = Base.OneTo(length(t))
cumsum(t::Tuple{}) = ()
cumsum(t::Tuple) = _cumsum_from(t[1], _tuple_tail(t...)...)
_cumsum_from(acc) = (acc,)
_cumsum_from(acc, x, rest...) = (acc, _cumsum_from(acc + x, rest...)...)
# Over named tuples with the same names in the same order: a named tuple of those names.
map(f, t::NamedTuple) = Core.nt_like(t, map(f, Tuple(t)))
function map(f, a::NamedTuple, b::NamedTuple)
    keys(a) == keys(b) || throw(ArgumentError("Named tuple names do not match."))
    return Core.nt_like(a, map(f, Tuple(a), Tuple(b)))
end
_tuple_map(f) = ()
_tuple_map(f, a, rest...) = (f(a), _tuple_map(f, rest...)...)
# Over two tuples, element by element, as long as the shorter one.
map(f, a::Tuple, b::Tuple) = _tuple_map2(f, a, b)
_tuple_map2(f, a::Tuple{}, b::Tuple{}) = ()
_tuple_map2(f, a::Tuple{}, b::Tuple) = ()
_tuple_map2(f, a::Tuple, b::Tuple{}) = ()
_tuple_map2(f, a::Tuple, b::Tuple) = (f(a[1], b[1]), _tuple_map2(f, _tuple_tail(a...), _tuple_tail(b...))...)
# Over three tuples likewise.
map(f, a::Tuple, b::Tuple, c::Tuple) = _tuple_map3(f, a, b, c)
_tuple_map3(f, a::Tuple, b::Tuple, c::Tuple) =
    isempty(a) || isempty(b) || isempty(c) ? () :
    (f(a[1], b[1], c[1]), _tuple_map3(f, _tuple_tail(a...), _tuple_tail(b...), _tuple_tail(c...))...)
isempty(t::Tuple) = Core.tuple_len(t) == 0

# `a => b`: a `Pair` (as in `diagm(0 => v, 1 => w)`); `p.first`, `p.second`, `first(p)`,
# `last(p)`, `p[1]`, `p[2]`, and `a, b = p`.
struct Pair{A,B}
    first::A
    second::B
end
Pair(a, b) = Pair{typeof(a),typeof(b)}(a, b)
=>(a, b) = Pair(a, b)
first(p::Pair) = p.first
last(p::Pair) = p.second
length(p::Pair) = 2
function getindex(p::Pair, i::Int64)
    i == 1 && return p.first
    i == 2 && return p.second
    Core.throw_bounds(p, i)
end
iterate_start(p::Pair) = 1
iterate_done(p::Pair, i::Int64) = i > 2
iterate_next(p::Pair, i::Int64) = (p[i], i + 1)
# Pairs sort by their first elements, then their second (`sort(collect(d))`).
isless(p::Pair, q::Pair) = ifelse(!isequal(p.first, q.first), isless(p.first, q.first), isless(p.second, q.second))
==(p::Pair, q::Pair) = (p.first == q.first) & (p.second == q.second)

# `replace(s, old => new)` of strings: every occurrence, left to right.
replace(s::String, p::Pair{String,String}) = Core.string_replace(s, p.first, p.second)
# A tuple indexed with a range or a vector of indices (or a Bool mask): the tuple of those
# elements (`t[2:end]`).
function getindex(t::Tuple, r::AbstractVector{Int64})
    for i in r
        1 <= i <= length(t) || Core.throw_bounds(t, i)
    end
    ntuple(k -> t[r[k]], length(r))
end
function getindex(t::Tuple, r::UnitRange{Int64})
    isempty(r) || (first(r) >= 1 && last(r) <= length(t)) || Core.throw_bounds(t, r)
    ntuple(k -> t[first(r) + k - 1], length(r))
end
getindex(t::Tuple, b::AbstractVector{Bool}) = t[findall(b)]
