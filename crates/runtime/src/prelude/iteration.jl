# Iteration helpers: the protocol `for` loops lower to (numbers, `enumerate`, `zip`), `first`,
# `last`, `isempty`.

# What a comprehension or generator maps over: the iterable itself (a string's characters and a
# tuple's elements are collected first).
_comprehension_source(x) = x
# A comprehension over a tuple makes a vector, as over its collected elements.
_comprehension_source(t::Tuple) = collect(t)
_comprehension_source(t::NamedTuple) = collect(t)

# Julia's iteration protocol. A type that defines `Base.iterate(x)` and `Base.iterate(x, state)`
# is iterated through them (`for`, comprehensions, `collect`, `sum`, ...): the loop's state is
# the last result of `iterate`, wrapped. Without them, `iterate` is the `MethodError`.
function iterate end
struct _Iterated{R}
    r::R
end
iterate_start(x) = _iterated(iterate(x))
iterate_done(x, st::_Iterated{Nothing}) = true
iterate_done(x, st::_Iterated) = false
iterate_next(x, st::_Iterated) = (st.r[1], _iterated(iterate(x, st.r[2])))
_iterated(r::Nothing) = _Iterated{Nothing}(r)
_iterated(r::Tuple) = _Iterated{typeof(r)}(r)
# A type's element type (what `collect` makes a vector of): that of its values
# (`eltype(UnitRange{Int64})`), `Any` for a type that declares none.
eltype(::Type{T}) where {T} = _eltype_of_values(Core.return_type(eltype, T))
eltype(::Type{T}) where {T<:Number} = T
# A value's element type is its type's (`Base.eltype(::Type{T})` of a program type serves its
# values too).
eltype(x) = eltype(typeof(x))
_eltype_of_values(::Type{Type{E}}) where {E} = E
_eltype_of_values(t) = Any
# `iterate` of the library's collections, with Julia's states.
iterate(a::Array, i::Int64 = 1) = 1 <= i <= length(a) ? (a[i], i + 1) : nothing
iterate(t::Tuple, i::Int64 = 1) = 1 <= i <= length(t) ? (t[i], i + 1) : nothing
iterate(x::Number, done::Bool = false) = done ? nothing : (x, true)
iterate(s::String, i::Int64 = 1) = i > Core.string_ncodeunits(s) ? nothing : (s[i], nextind(s, i))
iterate(r::UnitRange{Int64}) = isempty(r) ? nothing : (first(r), first(r))
iterate(r::UnitRange{Int64}, i::Int64) = i == last(r) ? nothing : (i + 1, i + 1)

# A number iterates once, as in Julia.
iterate_start(x::Number) = false
iterate_done(x::Number, done::Bool) = done
iterate_next(x::Number, done::Bool) = (x, true)
length(x::Number) = 1
# A number is a zero-dimensional container of itself (`x[1] == x`).
size(x::Number) = ()
ndims(x::Number) = 0
isempty(x::Number) = false
first(x::Number) = x
last(x::Number) = x
getindex(x::Number) = x
function getindex(x::Number, i::Int64)
    i == 1 || Core.throw_bounds(x, i)
    x
end

enumerate(x) = _Iterators_Enumerate(x)
iterate_start(e::_Iterators_Enumerate) = (1, iterate_start(e.itr))
iterate_done(e::_Iterators_Enumerate, st) = iterate_done(e.itr, st[2])
function iterate_next(e::_Iterators_Enumerate, st)
    p = iterate_next(e.itr, st[2])
    ((st[1], p[1]), (st[1] + 1, p[2]))
end
# `pairs(x)`: `i => x[i]` for each index `i` of `x`, lazily (Julia's `Base.Pairs`): linear
# indices of a vector or tuple, `CartesianIndex`es of any other array, the names of a named
# tuple (a method's `kws...` is one of these).
struct Pairs{K,V,I,A}
    data::A
    itr::I
end
_pairs(data, itr) = Pairs{eltype(itr),eltype(data),typeof(itr),typeof(data)}(data, itr)
pairs(v::AbstractVector) = _pairs(v, eachindex(v))
pairs(t::Tuple) = _pairs(t, 1:length(t))
pairs(A::AbstractArray) = _pairs(A, CartesianIndices(A))
pairs(t::NamedTuple) = Pairs{Symbol,eltype(t),typeof(keys(t)),typeof(t)}(t, keys(t))
iterate_start(p::Pairs) = iterate_start(p.itr)
iterate_done(p::Pairs, st) = iterate_done(p.itr, st)
function iterate_next(p::Pairs, st)
    k, next = iterate_next(p.itr, st)
    (k => p.data[k], next)
end
# A named tuple's entries by position.
iterate_start(p::Pairs{Symbol,V,I,A}) where {V,I,A<:NamedTuple} = 1
iterate_done(p::Pairs{Symbol,V,I,A}, i::Int64) where {V,I,A<:NamedTuple} = i > length(p.itr)
iterate_next(p::Pairs{Symbol,V,I,A}, i::Int64) where {V,I,A<:NamedTuple} = (p.itr[i] => p.data[i], i + 1)
length(p::Pairs) = length(p.itr)
isempty(p::Pairs) = length(p.itr) == 0
keys(p::Pairs) = p.itr
values(p::Pairs) = p.data
haskey(p::Pairs, k) = k in p.itr
getindex(p::Pairs, k) = p.data[k]
eltype(p::Pairs{K,V,I,A}) where {K,V,I,A} = Pair{K,V}
# What a call's `; kws...` passes on: a named tuple's fields, or a method's keywords.
_kw_splat(t::NamedTuple) = t
_kw_splat(p::Pairs{Symbol,V,I,A}) where {V,I,A<:NamedTuple} = p.data
_kw_splat(x) = error(string("not supported yet: splatting keyword arguments from a ", typeof(x), " (splat a named tuple or a method's `kws...`)"))
zip(a, b) = Zip2(a, b)
zip(a, b, c) = Zip3(a, b, c)
eltype(e::_Iterators_Enumerate) = Tuple{Int64,eltype(e.itr)}
eltype(z::Zip2) = Tuple{eltype(z.a),eltype(z.b)}
eltype(z::Zip3) = Tuple{eltype(z.a),eltype(z.b),eltype(z.c)}
iterate_start(z::Zip2) = (iterate_start(z.a), iterate_start(z.b))
iterate_done(z::Zip2, st) = iterate_done(z.a, st[1]) || iterate_done(z.b, st[2])
function iterate_next(z::Zip2, st)
    p = iterate_next(z.a, st[1])
    q = iterate_next(z.b, st[2])
    ((p[1], q[1]), (p[2], q[2]))
end
iterate_start(z::Zip3) = (iterate_start(z.a), iterate_start(z.b), iterate_start(z.c))
iterate_done(z::Zip3, st) = iterate_done(z.a, st[1]) || iterate_done(z.b, st[2]) || iterate_done(z.c, st[3])
function iterate_next(z::Zip3, st)
    p = iterate_next(z.a, st[1])
    q = iterate_next(z.b, st[2])
    r = iterate_next(z.c, st[3])
    ((p[1], q[1], r[1]), (p[2], q[2], r[2]))
end

# Destructuring `a, b = x` (Julia's `indexed_iterate`): element i of x and the state for the
# next. Tuples, named tuples and pairs give their fields (inference reads the field directly
# for a constant i), arrays their elements by linear index, anything else what it iterates.
indexed_iterate(t::Tuple, i::Int64, state = 1) = (t[i], i + 1)
indexed_iterate(t::NamedTuple, i::Int64, state = 1) = (t[i], i + 1)
indexed_iterate(p::Pair, i::Int64, state = 1) = (p[i], i + 1)
indexed_iterate(a::Array, i::Int64, state = 1) = (a[i], i + 1)
function indexed_iterate(x, i::Int64, state = iterate_start(x))
    iterate_done(x, state) && Core.throw_bounds(x, i)
    iterate_next(x, state)
end
# What `a, rest... = x` binds to `rest` (Julia's `Base.rest`): the elements after the state
# `indexed_iterate` left, as a tuple of a tuple, a named tuple of a named tuple, a string of a
# string and a vector of any other collection. Destructuring calls `_slurp(x, k, state)` with
# `k` the position of `rest` (inference takes a tuple's fields from `k` on directly).
_slurp(x, k::Int64, st) = rest(x, st)
_slurp(x, k::Int64, st::Nothing) = rest(x)
rest(t::Tuple) = t
rest(t::Tuple, i::Int64) = i <= 1 ? t : rest(_tuple_tail(t...), i - 1)
rest(t::NamedTuple) = t
rest(a::Array, i::Int64 = 1) = a[i:end]
rest(s::AbstractString, st = iterate_start(s)) = String(_rest_collect(s, st))
rest(x, st = iterate_start(x)) = _rest_collect(x, st)
function _rest_collect(x, st)
    out = Vector{eltype(x)}()
    while !iterate_done(x, st)
        y, st = iterate_next(x, st)
        push!(out, y)
    end
    out
end
NamedTuple(p::Pairs{Symbol,V,I,A}) where {V,I,A<:NamedTuple} = p.data
