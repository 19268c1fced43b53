# Hash tables: `hash`, `Dict`, `IdDict` and `Set`, built as Julia builds them: open addressing
# over a power-of-two table of slots (empty, filled or deleted), linear probing, growth when
# two thirds of the slots are taken, and iteration in slot order. A `Dict` compares keys by
# `isequal` and hashes them by `hash`; an `IdDict` compares by `===` and hashes `objectid`.
# Hash codes are `Int64`s holding the bits of Julia's `UInt` (the arithmetic wraps as UInt's
# does). Integers and floats hash by Julia's functions; strings, symbols, characters and
# structs by functions of the same kind, so for such keys the order of iteration may differ
# from a given Julia version's (Julia's own hash values change between versions).

# Julia's `HASH_SEED`.
const _HASH_SEED = 0xbdd89aa982704029
function _hash_finalizer(x::UInt64)
    b = x._bits
    b = xor(b, Core.lshr_int(b, 32)) * 7162177291856163431
    Core.new(UInt64, xor(b, Core.lshr_int(b, 33)))
end
# Julia's hash of an integer's 64 bits `b` (`3h - b`, wrapping).
_hash_bits(b::Int64, h::UInt64) = _hash_finalizer(Core.new(UInt64, 3 * h._bits - b))
hash(x) = hash(x, _HASH_SEED)
hash(x::Int64, h::UInt64) = _hash_bits(x, h)
hash(x::Bool, h::UInt64) = _hash_bits(Int64(x), h)
hash(x::_BitInt, h::UInt64) = _hash_bits(x._bits, h)
# `hash(reinterpret(UInt64, NaN))`: every NaN hashes alike (`isequal(NaN, -NaN)`).
const _HASH_NAN = 0xd56d637aa013acec
function hash(x::Float64, h::UInt64)
    # A float equal to an integer hashes as that integer (`isequal(1.0, 1)`).
    if -9.223372036854775808e18 <= x < 9.223372036854775808e18
        t = Core.trunc(x)
        t == x && !(t == 0 && signbit(x)) && return _hash_bits(Core.fptosi(Int64, t), h)
    elseif 0.0 <= x < 1.8446744073709552e19
        # An integer of UInt64's range beyond Int64's (every float there is one).
        return _hash_bits(Core.fptosi(Int64, x - 9.223372036854775808e18) + typemin(Int64), h)
    elseif isnan(x)
        return xor(_HASH_NAN, h)
    end
    _hash_bits(reinterpret(Int64, x), h)
end
hash(x::Float32, h::UInt64) = hash(Float64(x), h)
hash(c::Char, h::UInt64) = _hash_finalizer(xor(Core.new(UInt64, (Int64(c) + 3570811444) << 32), h))
hash(s::String, h::UInt64) = Core.new(UInt64, Core.hash_string(s, h._bits))
hash(s::SubString{String}, h::UInt64) = hash(String(s), h)
hash(s::Symbol, h::UInt64) = hash(objectid(s), h)
hash(::Tuple{}, h::UInt64) = h + 0x77cfa1eef01bca90
hash(t::Tuple, h::UInt64) = hash(t[1], hash(_tuple_tail(t...), h))
hash(p::Pair, h::UInt64) = hash(p.second, hash(p.first, h))
hash(t::NamedTuple, h::UInt64) = hash(Tuple(t), hash(keys(t), h + 0x7114f6a7d29c9f21))
# A complex number with a zero imaginary part hashes as its real part (`isequal(1.0 + 0im, 1.0)`).
hash(z::Complex, h::UInt64) = hash(real(z), xor(h, xor(hash(imag(z), 0x6848f09330088e63), hash(0, 0x6848f09330088e63))))
# Arrays hash by shape and elements (`isequal(1:3, [1, 2, 3])`).
function hash(a::AbstractArray, h::UInt64)
    h = hash(size(a), h + 0x6e7db853dea7903d)
    for x in a
        h = hash(x, h)
    end
    h
end
# Anything else by identity: the address of a mutable object, the contents of an immutable
# one (`===` values share an `objectid`).
hash(x, h::UInt64) = hash(objectid(x), h)
objectid(x) = Core.new(UInt64, Core.objectid(x))

isequal(a::Tuple, b::Tuple) = length(a) == length(b) && _isequal_fields(a, b)
_isequal_fields(a::Tuple{}, b::Tuple{}) = true
_isequal_fields(a::Tuple, b::Tuple) = isequal(a[1], b[1]) && _isequal_fields(_tuple_tail(a...), _tuple_tail(b...))
isequal(p::Pair, q::Pair) = isequal(p.first, q.first) && isequal(p.second, q.second)

struct KeyError <: Exception
    key
end
showerror(io::IO, e::KeyError) = print(io, "KeyError: key ", repr(e.key), " not found")

abstract type AbstractDict{K,V} end
abstract type AbstractSet{T} end

# Slot states.
const _SLOT_EMPTY = 0
const _SLOT_FILLED = 1
const _SLOT_DELETED = 2

# A table's slot states, keys and values, and in `meta` its counts: deleted slots, entries,
# changes, a slot no later than the first filled one, and the longest distance of a key from
# its home slot. (The arrays change size in place, so a table is never replaced: it is a
# struct of its arrays, whose fields read as cheaply as locals.)
struct Dict{K,V} <: AbstractDict{K,V}
    slots::Vector{Int64}
    keys::Vector{K}
    vals::Vector{V}
    meta::Vector{Int64}
    Dict{K,V}(slots::Vector{Int64}, keys::Vector{K}, vals::Vector{V}, meta::Vector{Int64}, ::Val{:table}) where {K,V} =
        new{K,V}(slots, keys, vals, meta)
end
struct IdDict{K,V} <: AbstractDict{K,V}
    slots::Vector{Int64}
    keys::Vector{K}
    vals::Vector{V}
    meta::Vector{Int64}
    IdDict{K,V}(slots::Vector{Int64}, keys::Vector{K}, vals::Vector{V}, meta::Vector{Int64}, ::Val{:table}) where {K,V} =
        new{K,V}(slots, keys, vals, meta)
end
const _SlotTable = Union{Dict,IdDict}
const _NDEL = 1
const _COUNT = 2
const _AGE = 3
const _IDXFLOOR = 4
const _MAXPROBE = 5

Dict{K,V}() where {K,V} = Dict{K,V}(zeros(Int64, 16), Vector{K}(undef, 16), Vector{V}(undef, 16), [0, 0, 0, 1, 0], Val(:table))
IdDict{K,V}() where {K,V} = IdDict{K,V}(zeros(Int64, 16), Vector{K}(undef, 16), Vector{V}(undef, 16), [0, 0, 0, 1, 0], Val(:table))
Dict() = Dict{Any,Any}()
IdDict() = IdDict{Any,Any}()
# From pairs, or from any iterable of pairs or 2-tuples (`Dict(zip(ks, vs))`, a generator).
Dict{K,V}(p::Pair) where {K,V} = setindex!(Dict{K,V}(), p.second, p.first)
IdDict{K,V}(p::Pair) where {K,V} = setindex!(IdDict{K,V}(), p.second, p.first)
Dict{K,V}(ps::Pair...) where {K,V} = _fill_table!(sizehint!(Dict{K,V}(), length(ps)), ps)
IdDict{K,V}(ps::Pair...) where {K,V} = _fill_table!(sizehint!(IdDict{K,V}(), length(ps)), ps)
Dict{K,V}(itr) where {K,V} = _fill_table!(Dict{K,V}(), itr)
IdDict{K,V}(itr) where {K,V} = _fill_table!(IdDict{K,V}(), itr)
# Without parameters: the keys' and the values' types joined (`Dict(:a => 1, :b => 2.0)` is
# a `Dict{Symbol, Real}`).
Dict(ps::Pair...) = Dict{_tuple_eltype(map(first, ps)...),_tuple_eltype(map(last, ps)...)}(ps...)
IdDict(ps::Pair...) = IdDict{_tuple_eltype(map(first, ps)...),_tuple_eltype(map(last, ps)...)}(ps...)
Dict(itr) = _table_of(Dict, vec(collect(itr)))
IdDict(itr) = _table_of(IdDict, vec(collect(itr)))
Dict(d::AbstractDict{K,V}) where {K,V} = Dict{K,V}(d)
_table_of(::Type{D}, ps::Vector{Pair{K,V}}) where {D,K,V} = D{K,V}(ps)
_table_of(::Type{D}, ps::Vector{Tuple{K,V}}) where {D,K,V} = D{K,V}(ps)
_table_of(::Type{D}, ps::Vector{Union{}}) where {D} = D{Any,Any}()
function _table_of(::Type{D}, ps::Vector) where {D}
    isempty(ps) && return D{Any,Any}()
    K = _tuple_eltype(map(p -> p[1], ps)...)
    V = _tuple_eltype(map(p -> p[2], ps)...)
    D{K,V}(ps)
end
function _fill_table!(d, itr)
    for p in itr
        _store_pair!(d, p)
    end
    d
end
_store_pair!(d, p::Pair) = setindex!(d, p.second, p.first)
_store_pair!(d, p::Tuple) = setindex!(d, p[2], p[1])
_store_pair!(d, p) = throw(ArgumentError("AbstractDict(kv): kv needs to be an iterator of 2-tuples or pairs"))

keytype(::AbstractDict{K,V}) where {K,V} = K
valtype(::AbstractDict{K,V}) where {K,V} = V
keytype(::Type{<:AbstractDict{K,V}}) where {K,V} = K
valtype(::Type{<:AbstractDict{K,V}}) where {K,V} = V
eltype(::AbstractDict{K,V}) where {K,V} = Pair{K,V}
eltype(::Type{<:AbstractDict{K,V}}) where {K,V} = Pair{K,V}
length(d::_SlotTable) = d.meta[_COUNT]
isempty(d::_SlotTable) = d.meta[_COUNT] == 0

# Where a key hashes to, and whether a stored key is the one sought.
_keyhash(d::Dict, k) = hash(k)
_keyhash(d::IdDict, k) = hash(objectid(k))
_samekey(d::Dict, a, b) = isequal(a, b)
_samekey(d::IdDict, a, b) = a === b
_home_slot(d, k, mask::Int64) = (_keyhash(d, k)._bits & mask) + 1

# The table size for `n` slots: a power of two, at least 16.
_tablesz(n::Int64) = n < 16 ? 16 : 1 << (64 - leading_zeros(n - 1))
# How far a key may be placed from its home slot before the table grows instead.
_maxallowedprobe(sz::Int64) = max(16, sz >> 6)

# The slot holding `key`, or 0.
@inline function _slot_of(d::_SlotTable, key)
    slots = d.slots
    keys = d.keys
    maxprobe = d.meta[_MAXPROBE]
    mask = length(keys) - 1
    index = _home_slot(d, key, mask)
    probe = 0
    while true
        s = slots[index]
        s == _SLOT_EMPTY && return 0
        s == _SLOT_FILLED && _samekey(d, key, keys[index]) && return index
        probe += 1
        probe > maxprobe && return 0
        index = (index & mask) + 1
    end
end

# The slot holding `key` (positive), or minus the slot a new `key` goes to.
@inline function _slot_for!(d::_SlotTable, key)
    slots = d.slots
    keys = d.keys
    maxprobe = d.meta[_MAXPROBE]
    mask = length(keys) - 1
    index = _home_slot(d, key, mask)
    avail = 0
    probe = 0
    while probe <= maxprobe
        s = slots[index]
        if s == _SLOT_EMPTY
            return avail < 0 ? avail : -index
        elseif s == _SLOT_DELETED
            avail == 0 && (avail = -index)
        elseif _samekey(d, key, keys[index])
            return index
        end
        index = (index & mask) + 1
        probe += 1
    end
    avail < 0 && return avail
    _slot_beyond!(d, key, index, probe)
end
# Past the longest probe so far: the first free slot within the allowed distance, else the
# table grows (and the search starts again).
function _slot_beyond!(d::_SlotTable, key, index::Int64, probe::Int64)
    slots = d.slots
    sz = length(slots)
    mask = sz - 1
    limit = _maxallowedprobe(sz)
    while probe < limit
        if slots[index] != _SLOT_FILLED
            d.meta[_MAXPROBE] = probe
            return -index
        end
        index = (index & mask) + 1
        probe += 1
    end
    _rehash!(d, d.meta[_COUNT] > 64000 ? sz * 2 : sz * 4)
    _slot_for!(d, key)
end

# Moves every entry into a table of `_tablesz(newsz)` slots (the arrays change size in place).
function _rehash!(d::_SlotTable, newsz::Int64)
    slots = d.slots
    ks = d.keys
    vs = d.vals
    olds = copy(slots)
    oldk = copy(ks)
    oldv = copy(vs)
    sz = _tablesz(newsz)
    mask = sz - 1
    resize!(slots, sz)
    fill!(slots, _SLOT_EMPTY)
    resize!(ks, sz)
    resize!(vs, sz)
    maxprobe = 0
    for i in 1:length(olds)
        if olds[i] == _SLOT_FILLED
            k = oldk[i]
            home = _home_slot(d, k, mask)
            index = home
            while slots[index] != _SLOT_EMPTY
                index = (index & mask) + 1
            end
            maxprobe = max(maxprobe, (index - home) & mask)
            slots[index] = _SLOT_FILLED
            ks[index] = k
            vs[index] = oldv[i]
        end
    end
    meta = d.meta
    meta[_NDEL] = 0
    meta[_MAXPROBE] = maxprobe
    meta[_IDXFLOOR] = 1
    meta[_AGE] += 1
    d
end

# Room for `n` entries without growing.
function sizehint!(d::_SlotTable, n::Int64)
    newsz = _tablesz((n * 3 + 1) >> 1)
    newsz <= length(d.slots) && return d
    _rehash!(d, newsz)
end

@inline function _store!(d::_SlotTable, v, key, index::Int64)
    meta = d.meta
    meta[_AGE] += 1
    if index > 0
        d.keys[index] = key
        d.vals[index] = v
        return d
    end
    index = -index
    slots = d.slots
    slots[index] == _SLOT_DELETED && (meta[_NDEL] -= 1)
    slots[index] = _SLOT_FILLED
    d.keys[index] = key
    d.vals[index] = v
    count = meta[_COUNT] + 1
    meta[_COUNT] = count
    index < meta[_IDXFLOOR] && (meta[_IDXFLOOR] = index)
    # Grow when more than two thirds of the slots are taken (deleted slots count: they lengthen
    # probe sequences).
    if (count + meta[_NDEL]) * 3 > length(slots) * 2
        _rehash!(d, count > 64000 ? count * 2 : max(count * 4, 4))
    end
    d
end

@inline function setindex!(d::_SlotTable, v0, key0)
    K = keytype(d)
    key = convert(K, key0)
    _samekey(d, key, key0) || throw(ArgumentError(string(repr(key0), " is not a valid key for type ", K)))
    _store!(d, convert(valtype(d), v0), key, _slot_for!(d, key))
end
# `d[a, b]` is `d[(a, b)]`.
setindex!(d::AbstractDict, v, k1, k2, ks...) = setindex!(d, v, (k1, k2, ks...))
getindex(d::AbstractDict, k1, k2, ks...) = getindex(d, (k1, k2, ks...))

@inline function getindex(d::_SlotTable, key)
    index = _slot_of(d, key)
    index == 0 && throw(KeyError(key))
    d.vals[index]
end
haskey(d::_SlotTable, key) = _slot_of(d, key) != 0
@inline function get(d::_SlotTable, key, default)
    index = _slot_of(d, key)
    index == 0 ? default : d.vals[index]
end
function get(f, d::_SlotTable, key)
    index = _slot_of(d, key)
    index == 0 ? f() : d.vals[index]
end
# The stored key equal to `key` (it may differ: `1` for `1.0`), else `default`.
function getkey(d::_SlotTable, key, default)
    index = _slot_of(d, key)
    index == 0 ? default : d.keys[index]
end
function get!(d::_SlotTable, key0, default)
    key = convert(keytype(d), key0)
    index = _slot_for!(d, key)
    index > 0 && return d.vals[index]
    v = convert(valtype(d), default)
    _store!(d, v, key, index)
    v
end
function get!(f, d::_SlotTable, key0)
    key = convert(keytype(d), key0)
    index = _slot_of(d, key)
    index > 0 && return d.vals[index]
    v = convert(valtype(d), f())
    # `f` may have changed the table.
    _store!(d, v, key, _slot_for!(d, key))
    v
end

# Empties slot `index`: marked deleted, unless the next slot is empty, when no probe
# sequence runs through it and it (with the deleted slots just before it) becomes empty.
function _delete_slot!(d::_SlotTable, index::Int64)
    slots = d.slots
    mask = length(slots) - 1
    ndel = 1
    if slots[(index & mask) + 1] == _SLOT_EMPTY
        while true
            ndel -= 1
            slots[index] = _SLOT_EMPTY
            index = ((index - 2) & mask) + 1
            slots[index] == _SLOT_DELETED || break
        end
    else
        slots[index] = _SLOT_DELETED
    end
    meta = d.meta
    meta[_NDEL] += ndel
    meta[_COUNT] -= 1
    meta[_AGE] += 1
    d
end
function delete!(d::_SlotTable, key)
    index = _slot_of(d, key)
    index > 0 && _delete_slot!(d, index)
    d
end
function pop!(d::_SlotTable, key)
    index = _slot_of(d, key)
    index == 0 && throw(KeyError(key))
    v = d.vals[index]
    _delete_slot!(d, index)
    v
end
function pop!(d::_SlotTable, key, default)
    index = _slot_of(d, key)
    index == 0 && return default
    v = d.vals[index]
    _delete_slot!(d, index)
    v
end
function empty!(d::_SlotTable)
    fill!(d.slots, _SLOT_EMPTY)
    meta = d.meta
    meta[_NDEL] = 0
    meta[_COUNT] = 0
    meta[_MAXPROBE] = 0
    meta[_IDXFLOOR] = 1
    meta[_AGE] += 1
    d
end

# Iteration: the filled slots in order, as `key => value` pairs.
@inline function _next_filled(d::_SlotTable, i::Int64)
    slots = d.slots
    n = length(slots)
    while i <= n && slots[i] != _SLOT_FILLED
        i += 1
    end
    i
end
iterate_start(d::_SlotTable) = _next_filled(d, d.meta[_IDXFLOOR])
iterate_done(d::_SlotTable, i::Int64) = i > length(d.slots)
iterate_next(d::Dict{K,V}, i::Int64) where {K,V} = (Pair{K,V}(d.keys[i], d.vals[i]), _next_filled(d, i + 1))
iterate_next(d::IdDict{K,V}, i::Int64) where {K,V} = (Pair{K,V}(d.keys[i], d.vals[i]), _next_filled(d, i + 1))

# `keys(d)`, `values(d)`: views of the table, iterated in its order.
struct KeySet{K,D} <: AbstractSet{K}
    dict::D
end
struct ValueIterator{D}
    dict::D
end
keys(d::AbstractDict{K,V}) where {K,V} = KeySet{K,typeof(d)}(d)
values(d::AbstractDict) = ValueIterator{typeof(d)}(d)
pairs(d::AbstractDict) = d
iterate_start(s::Union{KeySet,ValueIterator}) = iterate_start(s.dict)
iterate_done(s::Union{KeySet,ValueIterator}, i) = iterate_done(s.dict, i)
iterate_next(s::KeySet, i::Int64) = (s.dict.keys[i], _next_filled(s.dict, i + 1))
iterate_next(s::ValueIterator, i::Int64) = (s.dict.vals[i], _next_filled(s.dict, i + 1))
length(s::Union{KeySet,ValueIterator}) = length(s.dict)
isempty(s::Union{KeySet,ValueIterator}) = isempty(s.dict)
eltype(::KeySet{K,D}) where {K,D} = K
eltype(s::ValueIterator) = valtype(s.dict)
in(k, s::KeySet) = haskey(s.dict, k)
in(v, s::ValueIterator) = any(x -> x == v, s)

# A vector of the entries (keys, values, elements) in the table's order.
collect(d::AbstractDict{K,V}) where {K,V} = _collect_table(Vector{Pair{K,V}}(undef, length(d)), d)
collect(s::KeySet{K,D}) where {K,D} = _collect_table(Vector{K}(undef, length(s)), s)
collect(s::ValueIterator) = _collect_table(Vector{valtype(s.dict)}(undef, length(s)), s)
function _collect_table(out::Vector, itr)
    k = 0
    for x in itr
        k += 1
        out[k] = x
    end
    out
end

# `findmax(d)`: the largest value (by `isless`, so `NaN` is largest) and its key; the first
# such in the table's order.
findmax(d::AbstractDict) = _find_extreme(d, (best, v) -> isless(best, v))
findmin(d::AbstractDict) = _find_extreme(d, (best, v) -> isless(v, best))
argmax(d::AbstractDict) = findmax(d)[2]
argmin(d::AbstractDict) = findmin(d)[2]
function _find_extreme(d, better)
    st = iterate_start(d)
    iterate_done(d, st) && throw(ArgumentError("reducing over an empty collection is not allowed; consider supplying `init` to the reducer"))
    p, st = iterate_next(d, st)
    bv, bk = p.second, p.first
    while !iterate_done(d, st)
        p, st = iterate_next(d, st)
        if better(bv, p.second)
            bv, bk = p.second, p.first
        end
    end
    (bv, bk)
end

function in(p::Pair, d::AbstractDict)
    index = _slot_of(d, p.first)
    index != 0 && d.vals[index] == p.second
end
in(x, d::AbstractDict) = throw(ArgumentError("AbstractDict collections only contain Pairs;\nEither look for e.g. A=>B instead, or use the `keys` or `values`\nfunction if you are looking for a key or value respectively."))
map(f, d::AbstractDict) = Core.throw_error("map is not defined on dictionaries")

function copy(d::Dict{K,V}) where {K,V}
    Dict{K,V}(copy(d.slots), copy(d.keys), copy(d.vals), copy(d.meta), Val(:table))
end
function copy(d::IdDict{K,V}) where {K,V}
    IdDict{K,V}(copy(d.slots), copy(d.keys), copy(d.vals), copy(d.meta), Val(:table))
end
function merge!(d::AbstractDict, others::AbstractDict...)
    for other in others
        for (k, v) in other
            d[k] = v
        end
    end
    d
end
# Values of keys in several dictionaries combined by `combine(earlier, later)`.
function mergewith!(combine, d::AbstractDict, others::AbstractDict...)
    for other in others
        for (k, v) in other
            d[k] = haskey(d, k) ? combine(d[k], v) : v
        end
    end
    d
end
merge!(combine::Function, d::AbstractDict, others::AbstractDict...) = mergewith!(combine, d, others...)
_empty_like(::Dict, ::Type{K}, ::Type{V}) where {K,V} = Dict{K,V}()
_empty_like(::IdDict, ::Type{K}, ::Type{V}) where {K,V} = IdDict{K,V}()
_merge_keytype(d) = keytype(d)
_merge_keytype(d, e, rest...) = promote_type(keytype(d), _merge_keytype(e, rest...))
_merge_valtype(d) = valtype(d)
_merge_valtype(d, e, rest...) = promote_type(valtype(d), _merge_valtype(e, rest...))
merge(d::AbstractDict) = copy(d)
merge(d::AbstractDict, others::AbstractDict...) =
    merge!(_empty_like(d, _merge_keytype(d, others...), _merge_valtype(d, others...)), d, others...)
mergewith(combine, d::AbstractDict, others::AbstractDict...) =
    mergewith!(combine, _empty_like(d, _merge_keytype(d, others...), _merge_valtype(d, others...)), d, others...)
merge(combine::Function, d::AbstractDict, others::AbstractDict...) = mergewith(combine, d, others...)

# `filter(f, d)`: the entries whose pair `f` accepts.
function filter(f, d::Dict{K,V}) where {K,V}
    out = Dict{K,V}()
    for p in d
        f(p) && (out[p.first] = p.second)
    end
    out
end
function filter!(f, d::_SlotTable)
    for i in 1:length(d.slots)
        if d.slots[i] == _SLOT_FILLED && !f(Pair(d.keys[i], d.vals[i]))
            _delete_slot!(d, i)
        end
    end
    d
end

function ==(a::AbstractDict, b::AbstractDict)
    a === b && return true
    length(a) == length(b) || return false
    for (k, v) in a
        haskey(b, k) || return false
        b[k] == v || return false
    end
    true
end
function isequal(a::AbstractDict, b::AbstractDict)
    a === b && return true
    length(a) == length(b) || return false
    for (k, v) in a
        haskey(b, k) || return false
        isequal(b[k], v) || return false
    end
    true
end
# Independent of the order of the entries.
function hash(d::AbstractDict, h::UInt64)
    hv = hash(0x6d33b007517af539, h)
    for (k, v) in d
        hv = xor(hv, hash(k, hash(v)))
    end
    hv
end

# `Set{T}`: the keys of a `Dict{T, Nothing}`.
struct Set{T} <: AbstractSet{T}
    dict::Dict{T,Nothing}
    Set{T}() where {T} = new{T}(Dict{T,Nothing}())
    Set{T}(d::Dict{T,Nothing}, ::Val{:shared}) where {T} = new{T}(d)
end
function Set{T}(itr) where {T}
    s = Set{T}()
    for x in itr
        push!(s, x)
    end
    s
end
Set() = Set{Any}()
Set(v::AbstractArray{T}) where {T} = Set{T}(v)
Set(s::AbstractSet{T}) where {T} = Set{T}(s)
function Set(itr)
    v = collect(itr)
    Set{eltype(v)}(v)
end
eltype(::AbstractSet{T}) where {T} = T
length(s::Set) = length(s.dict)
isempty(s::Set) = isempty(s.dict)
in(x, s::Set) = haskey(s.dict, x)
push!(s::Set, x) = (s.dict[x] = nothing; s)
push!(s::Set, x, y, zs...) = (push!(s, x); push!(s, y, zs...))
delete!(s::Set, x) = (delete!(s.dict, x); s)
function pop!(s::Set, x)
    index = _slot_of(s.dict, x)
    index == 0 && throw(KeyError(x))
    k = s.dict.keys[index]
    _delete_slot!(s.dict, index)
    k
end
function pop!(s::Set, x, default)
    index = _slot_of(s.dict, x)
    index == 0 && return default
    k = s.dict.keys[index]
    _delete_slot!(s.dict, index)
    k
end
function pop!(s::Set)
    isempty(s) && throw(ArgumentError("set must be non-empty"))
    i = iterate_start(s.dict)
    k = s.dict.keys[i]
    _delete_slot!(s.dict, i)
    k
end
empty!(s::Set) = (empty!(s.dict); s)
sizehint!(s::Set, n::Int64) = (sizehint!(s.dict, n); s)
copy(s::Set{T}) where {T} = Set{T}(copy(s.dict), Val(:shared))
iterate_start(s::Set) = iterate_start(s.dict)
iterate_done(s::Set, i::Int64) = iterate_done(s.dict, i)
iterate_next(s::Set, i::Int64) = (s.dict.keys[i], _next_filled(s.dict, i + 1))
map(f, s::AbstractSet) = Core.throw_error("map is not defined on sets")
collect(s::Set{T}) where {T} = _collect_table(Vector{T}(undef, length(s)), s)
function filter(f, s::Set{T}) where {T}
    out = Set{T}()
    for x in s
        f(x) && push!(out, x)
    end
    out
end
function filter!(f, s::Set)
    d = s.dict
    for i in 1:length(d.slots)
        d.slots[i] == _SLOT_FILLED && !f(d.keys[i]) && _delete_slot!(d, i)
    end
    s
end
==(a::AbstractSet, b::AbstractSet) = length(a) == length(b) && issubset(a, b)
isequal(a::AbstractSet, b::AbstractSet) = a == b
function hash(s::AbstractSet, h::UInt64)
    hv = hash(0x8e1c48a58aefef61, h)
    for x in s
        hv = xor(hv, hash(x))
    end
    hv
end

# Set algebra. Of sets the result is a `Set`; of vectors, a vector of the distinct elements in
# the order they first occur (as Julia's).
_promote_eltype(a) = eltype(a)
_promote_eltype(a, b, rest...) = promote_type(eltype(a), _promote_eltype(b, rest...))
function union!(s::AbstractSet, itrs...)
    for itr in itrs
        for x in itr
            push!(s, x)
        end
    end
    s
end
union(s::AbstractSet, itrs...) = union!(Set{_promote_eltype(s, itrs...)}(), s, itrs...)
union(v::AbstractVector, itrs...) = _distinct!(Vector{_promote_eltype(v, itrs...)}(), Set{_promote_eltype(v, itrs...)}(), v, itrs...)
# Pushes each element of the iterables not seen before.
function _distinct!(out::Vector, seen::Set, itrs...)
    for itr in itrs
        for x in itr
            if !(x in seen)
                push!(seen, x)
                push!(out, x)
            end
        end
    end
    out
end
function intersect!(s::AbstractSet, itrs...)
    for itr in itrs
        keep = itr isa AbstractSet ? itr : Set(itr)
        filter!(x -> x in keep, s)
    end
    s
end
intersect(s::AbstractSet, itrs...) = intersect!(union!(Set{_promote_eltype(s, itrs...)}(), s), itrs...)
function intersect(v::AbstractVector, itrs...)
    T = _promote_eltype(v, itrs...)
    keep = intersect!(union!(Set{T}(), v), itrs...)
    _distinct!(Vector{T}(), Set{T}(), filter(x -> x in keep, v))
end
function setdiff!(s::AbstractSet, itrs...)
    for itr in itrs
        for x in itr
            delete!(s, x)
        end
    end
    s
end
setdiff(s::AbstractSet, itrs...) = setdiff!(copy(s), itrs...)
function setdiff(v::AbstractVector, itrs...)
    T = eltype(v)
    drop = Set{T}()
    for itr in itrs
        for x in itr
            push!(drop, x)
        end
    end
    _distinct!(Vector{T}(), drop, v)
end
function symdiff!(s::AbstractSet, itrs...)
    for itr in itrs
        for x in Set(itr)
            x in s ? delete!(s, x) : push!(s, x)
        end
    end
    s
end
symdiff(s::AbstractSet, itrs...) = symdiff!(union!(Set{_promote_eltype(s, itrs...)}(), s), itrs...)
function symdiff(v::AbstractVector, itrs...)
    s = symdiff(Set(v), itrs...)
    filter(x -> x in s, union(v, itrs...))
end
function issubset(a, b)
    inb = b isa AbstractSet ? b : Set(b)
    for x in a
        x in inb || return false
    end
    true
end
⊆(a, b) = issubset(a, b)
⊇(a, b) = issubset(b, a)
⊈(a, b) = !issubset(a, b)
⊉(a, b) = !issubset(b, a)
⊊(a, b) = length(Set(a)) < length(Set(b)) && issubset(a, b)
⊋(a, b) = ⊊(b, a)
issetequal(a, b) = issubset(a, b) && issubset(b, a)
function isdisjoint(a, b)
    inb = b isa AbstractSet ? b : Set(b)
    for x in a
        x in inb && return false
    end
    true
end
∪(a, b...) = union(a, b...)
∩(a, b...) = intersect(a, b...)
