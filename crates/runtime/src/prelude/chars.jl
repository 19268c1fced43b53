# Characters (`'a'`, `Char(97)`) and strings as sequences of them: indexing by byte (`s[i]`,
# `s[i:j]`, `thisind`/`nextind`/`prevind`), iteration, and the character classes and case
# mappings of Julia's `Base.Unicode`. A character literal is `Char(code point)`.

abstract type AbstractChar end
struct Char <: AbstractChar
    _code::Int64
    function Char(code::Int64)
        # Julia's `Char` also holds surrogates and code points up to 31ffff, which text here
        # (valid UTF-8) cannot contain.
        (0 <= code <= 55295 || 57344 <= code <= 1114111) ||
            Core.throw_argument(string("not supported yet: the character with code point ", code, ", which is not a Unicode scalar value"))
        new(code)
    end
end
Char(c::Char) = c
Char(code::Integer) = Char(Int64(code))
Int64(c::Char) = c._code
Int(c::Char) = c._code
codepoint(c::Char) = Core.new(UInt32, c._code)

==(a::Char, b::Char) = a._code == b._code
isequal(a::Char, b::Char) = a._code == b._code
<(a::Char, b::Char) = a._code < b._code
<=(a::Char, b::Char) = a._code <= b._code
isless(a::Char, b::Char) = a._code < b._code
cmp(a::Char, b::Char) = cmp(a._code, b._code)
# Arithmetic moves along code points: `'a' + 1 == 'b'`, `'c' - 'a' == 2`.
+(c::Char, n::Integer) = Char(c._code + Int64(n))
+(n::Integer, c::Char) = Char(Int64(n) + c._code)
-(c::Char, n::Integer) = Char(c._code - Int64(n))
-(a::Char, b::Char) = a._code - b._code
length(c::Char) = 1
ndims(c::Char) = 0
isempty(c::Char) = false
iterate_start(c::Char) = false
iterate_done(c::Char, done::Bool) = done
iterate_next(c::Char, done::Bool) = (c, true)
eltype(::Type{Char}) = Char

string(c::Char) = Core.string(c)
*(a::Char, b::Char) = string(a, b)
*(a::Char, b::String) = string(a, b)
*(a::String, b::Char) = string(a, b)
function repeat(c::Char, n::Int64)
    n >= 0 || Core.throw_argument(string("can't repeat a character ", n, " times"))
    repeat(string(c), n)
end

# Character classes, as `Base.Unicode` defines them from the general category (numbered as
# utf8proc numbers it: `Lu` 1 … `Lo` 5, `Nd` 9 … `No` 11, `Pc` 12 … `Po` 18, `Zs` 23).
_category(c::Char) = Core.char_property(c._code, 0)
isascii(c::Char) = c._code < 128
isdigit(c::Char) = '0' <= c <= '9'
isxdigit(c::Char) = '0' <= c <= '9' || 'a' <= c <= 'f' || 'A' <= c <= 'F'
isletter(c::Char) = 1 <= _category(c) <= 5
isnumeric(c::Char) = 9 <= _category(c) <= 11
ispunct(c::Char) = 12 <= _category(c) <= 18
isprint(c::Char) = 1 <= _category(c) <= 23
iscntrl(c::Char) = c._code <= 31 || 127 <= c._code <= 159
isspace(c::Char) = c == ' ' || '\t' <= c <= '\r' || c._code == 133 || (c._code >= 160 && _category(c) == 23)
isuppercase(c::Char) = Core.char_property(c._code, 1) == 1
islowercase(c::Char) = Core.char_property(c._code, 2) == 1
uppercase(c::Char) = Char(Core.char_property(c._code, 3))
lowercase(c::Char) = Char(Core.char_property(c._code, 4))

# Strings indexed by byte: `s[i]` is the character starting at byte `i`.
eltype(::Type{String}) = Char
eltype(s::String) = Char
getindex(s::String, i::Int64) = Char(Core.string_char(s, i))
getindex(s::String, r::UnitRange{Int64}) = Core.string_slice(s, r.start, r.stop)
getindex(s::String, i::Integer) = s[Int64(i)]
firstindex(s::String) = 1
lastindex(s::String) = Core.string_index(s, Core.string_ncodeunits(s), 0)
thisind(s::String, i::Int64) = Core.string_index(s, i, 0)
nextind(s::String, i::Int64) = Core.string_index(s, i, 1)
prevind(s::String, i::Int64) = Core.string_index(s, i, -1)
# With a count: `n` characters on (past the end, one byte per step), as Julia's do.
function nextind(s::String, i::Int64, n::Int64)
    n >= 0 || Core.throw_argument(string("n cannot be negative: ", n))
    z = Core.string_ncodeunits(s)
    0 <= i <= z || Core.throw_bounds(s, i)
    if n == 0
        i == 0 || Core.string_char(s, i)
        return i
    end
    while n > 0 && i < z
        i += 1
        isvalid(s, i) && (n -= 1)
    end
    i + n
end
function prevind(s::String, i::Int64, n::Int64)
    n >= 0 || Core.throw_argument(string("n cannot be negative: ", n))
    z = Core.string_ncodeunits(s) + 1
    0 < i <= z || Core.throw_bounds(s, i)
    if n == 0
        i == z || Core.string_char(s, i)
        return i
    end
    while n > 0 && 1 < i
        i -= 1
        isvalid(s, i) && (n -= 1)
    end
    i - n
end
function isvalid(s::String, i::Int64)
    1 <= i <= Core.string_ncodeunits(s) || return false
    thisind(s, i) == i
end
iterate_start(s::String) = 1
iterate_done(s::String, i::Int64) = i > Core.string_ncodeunits(s)
iterate_next(s::String, i::Int64) = (s[i], nextind(s, i))
function iterate(s::String, i::Int64 = 1)
    i > Core.string_ncodeunits(s) && return nothing
    (s[i], nextind(s, i))
end
function first(s::String)
    isempty(s) && Core.throw_argument("collection must be non-empty")
    s[1]
end
last(s::String) = s[lastindex(s)]
function first(s::String, n::Int64)
    n >= 0 || Core.throw_argument("Number of elements must be non-negative")
    s[1:min(lastindex(s), nextind(s, 0, n))]
end
function last(s::String, n::Int64)
    n >= 0 || Core.throw_argument("Number of elements must be non-negative")
    s[max(1, prevind(s, Core.string_ncodeunits(s) + 1, n)):lastindex(s)]
end
reverse(s::String) = join(reverse(collect(s)))
# `collect(s)`, `[c for c in s]`, `c in s` go through iteration; `map` and `filter` of a
# string give strings, as in Julia (a comprehension over a string collects it first).
_comprehension_source(s::String) = collect(s)
function collect(s::String)
    out = Vector{Char}(undef, 0)
    for c in s
        push!(out, c)
    end
    out
end
function map(f, s::String)
    out = ""
    for c in s
        d = f(c)
        d isa Char || Core.throw_argument("map(f, s::AbstractString) requires f to return AbstractChar; try map(f, collect(s)) or a comprehension instead")
        out = string(out, d)
    end
    out
end
function filter(f, s::String)
    out = ""
    for c in s
        f(c) && (out = string(out, c))
    end
    out
end
occursin(c::Char, s::String) = c in s
function findfirst(c::Char, s::String)
    i = 1
    n = Core.string_ncodeunits(s)
    while i <= n
        s[i] == c && return i
        i = nextind(s, i)
    end
    nothing
end
String(cs::Vector{Char}) = join(cs)

# Substrings: `SubString{String}` shares its parent's text (Julia's fields: the parent, the
# byte offset, the number of bytes). `split`, `strip`, `chomp`, `chop` return them; they print
# as their text and compare equal to strings of the same text. Functions of strings take them
# through `String(s)`, a copy of their text.
struct SubString{T<:AbstractString} <: AbstractString
    string::T
    offset::Int64
    ncodeunits::Int64
end
function SubString(s::String, i::Int64, j::Int64)
    j < i && return SubString{String}(s, 0, 0)
    Core.string_char(s, i)
    Core.string_char(s, j)
    SubString{String}(s, i - 1, nextind(s, j) - i)
end
SubString(s::String, i::Int64) = SubString(s, i, lastindex(s))
SubString(s::String) = SubString(s, 1, lastindex(s))
SubString(s::SubString{String}, i::Int64, j::Int64) =
    j < i ? SubString{String}(s.string, 0, 0) : SubString(s.string, s.offset + i, s.offset + j)
SubString(s::SubString{String}, i::Int64) = SubString(s, i, lastindex(s))
function String(s::SubString{String})
    s.ncodeunits == 0 && return ""
    Core.string_slice(s.string, s.offset + 1, thisind(s.string, s.offset + s.ncodeunits))
end
string(s::SubString{String}) = String(s)
ncodeunits(s::SubString{String}) = s.ncodeunits
sizeof(s::SubString{String}) = s.ncodeunits
isempty(s::SubString{String}) = s.ncodeunits == 0
length(s::SubString{String}) = length(String(s))
==(a::SubString{String}, b::SubString{String}) = String(a) == String(b)
==(a::SubString{String}, b::String) = String(a) == b
==(a::String, b::SubString{String}) = a == String(b)
isequal(a::SubString{String}, b::Union{String,SubString{String}}) = a == b
isequal(a::String, b::SubString{String}) = a == b
cmp(a::SubString{String}, b::Union{String,SubString{String}}) = cmp(String(a), string(b))
cmp(a::String, b::SubString{String}) = cmp(a, String(b))
isless(a::SubString{String}, b::Union{String,SubString{String}}) = isless(String(a), string(b))
isless(a::String, b::SubString{String}) = isless(a, String(b))
*(a::SubString{String}, b::Union{String,SubString{String},Char}) = string(a, b)
*(a::Union{String,Char}, b::SubString{String}) = string(a, b)
getindex(s::SubString{String}, i::Int64) = String(s)[i]
getindex(s::SubString{String}, r::UnitRange{Int64}) = String(s)[r]
firstindex(s::SubString{String}) = 1
lastindex(s::SubString{String}) = lastindex(String(s))
thisind(s::SubString{String}, i::Int64) = thisind(String(s), i)
nextind(s::SubString{String}, i::Int64) = nextind(String(s), i)
prevind(s::SubString{String}, i::Int64) = prevind(String(s), i)
isvalid(s::SubString{String}, i::Int64) = isvalid(String(s), i)
iterate_start(s::SubString{String}) = 1
iterate_done(s::SubString{String}, i::Int64) = i > s.ncodeunits
iterate_next(s::SubString{String}, i::Int64) = iterate_next(String(s), i)
eltype(::Type{SubString{String}}) = Char
eltype(s::SubString{String}) = Char
collect(s::SubString{String}) = collect(String(s))
_comprehension_source(s::SubString{String}) = collect(String(s))
first(s::SubString{String}) = first(String(s))
last(s::SubString{String}) = last(String(s))
first(s::SubString{String}, n::Int64) = first(String(s), n)
last(s::SubString{String}, n::Int64) = last(String(s), n)
reverse(s::SubString{String}) = reverse(String(s))
map(f, s::SubString{String}) = map(f, String(s))
filter(f, s::SubString{String}) = filter(f, String(s))
uppercase(s::SubString{String}) = uppercase(String(s))
lowercase(s::SubString{String}) = lowercase(String(s))
occursin(needle::Union{String,SubString{String}}, s::SubString{String}) = occursin(string(needle), String(s))
occursin(needle::SubString{String}, s::String) = occursin(String(needle), s)
occursin(c::Char, s::SubString{String}) = occursin(c, String(s))
contains(s::SubString{String}, needle) = occursin(needle, s)
startswith(s::SubString{String}, prefix::Union{String,SubString{String}}) = startswith(String(s), string(prefix))
startswith(s::String, prefix::SubString{String}) = startswith(s, String(prefix))
endswith(s::SubString{String}, suffix::Union{String,SubString{String}}) = endswith(String(s), string(suffix))
endswith(s::String, suffix::SubString{String}) = endswith(s, String(suffix))
findfirst(c::Char, s::SubString{String}) = findfirst(c, String(s))
findfirst(pat::Union{String,SubString{String}}, s::SubString{String}) = findfirst(string(pat), String(s))
findnext(pat::Union{String,SubString{String}}, s::SubString{String}, i::Int64) = findnext(string(pat), String(s), i)
replace(s::SubString{String}, p) = replace(String(s), p)
parse(::Type{Int64}, s::SubString{String}) = parse(Int64, String(s))
parse(::Type{Float64}, s::SubString{String}) = parse(Float64, String(s))
Symbol(s::SubString{String}) = Symbol(String(s))
repeat(s::SubString{String}, n::Int64) = repeat(String(s), n)

# Splitting: at each occurrence of a string or a character, or (without a delimiter) at runs
# of whitespace; `keepempty` (default: true with a delimiter, false without) keeps the empty
# pieces, `limit` (if positive) caps the number of pieces, the last holding the rest. As
# Julia's `split`, piece by piece.
function _split(s::String, pat, limit::Int64, keepempty::Bool)
    strs = Vector{SubString{String}}(undef, 0)
    i = 1
    n = lastindex(s)
    r = _split_find(pat, s, 1)
    if r !== nothing
        j = first(r)
        k = nextind(s, last(r))
        while 0 < j <= n && length(strs) != limit - 1
            if i < k
                if keepempty || i < j
                    push!(strs, SubString(s, i, prevind(s, j)))
                end
                i = k
            end
            k <= j && (k = nextind(s, j))
            r = _split_find(pat, s, k)
            r === nothing && break
            j = first(r)
            k = nextind(s, last(r))
        end
    end
    if keepempty || i <= Core.string_ncodeunits(s)
        push!(strs, SubString(s, i))
    end
    strs
end
_split_find(pat::String, s::String, k::Int64) = findnext(pat, s, k)
# A character delimiter, or whitespace: the next character that is one.
_split_at(pat::Char, c::Char) = c == pat
_split_at(pat::typeof(isspace), c::Char) = isspace(c)
function _split_find(pat, s::String, k::Int64)
    n = Core.string_ncodeunits(s)
    while k <= n
        _split_at(pat, s[k]) && return k:k
        k = nextind(s, k)
    end
    nothing
end
split(s::String, pat::Union{String,Char}; limit::Int64 = 0, keepempty::Bool = true) = _split(s, pat, limit, keepempty)
split(s::String, pat::SubString{String}; limit::Int64 = 0, keepempty::Bool = true) = _split(s, String(pat), limit, keepempty)
split(s::String; limit::Int64 = 0, keepempty::Bool = false) = _split(s, isspace, limit, keepempty)
function split(s::SubString{String}, pat::Union{String,Char,SubString{String}}; limit::Int64 = 0, keepempty::Bool = true)
    _resplit(s, split(String(s), pat; limit = limit, keepempty = keepempty))
end
split(s::SubString{String}; limit::Int64 = 0, keepempty::Bool = false) = _resplit(s, split(String(s); limit = limit, keepempty = keepempty))
# Pieces of a substring's copy as substrings of its parent.
function _resplit(s::SubString{String}, parts::Vector{SubString{String}})
    out = Vector{SubString{String}}(undef, 0)
    for p in parts
        push!(out, _reslice(s, p))
    end
    out
end

# Stripping characters from the ends (whitespace, or those `chars` names: a character, or a
# vector or tuple of them).
_strip_set(c::Char) = ch -> ch == c
_strip_set(cs::Union{Vector{Char},Tuple}) = ch -> ch in cs
function lstrip(f::Function, s::String)
    e = lastindex(s)
    i = 1
    while i <= e
        f(s[i]) || return SubString(s, i, e)
        i = nextind(s, i)
    end
    SubString(s, e + 1, e)
end
function rstrip(f::Function, s::String)
    i = lastindex(s)
    while i >= 1
        f(s[i]) || return SubString(s, 1, i)
        i = prevind(s, i)
    end
    SubString(s, 1, 0)
end
lstrip(f::Function, s::SubString{String}) = _reslice(s, lstrip(f, String(s)))
rstrip(f::Function, s::SubString{String}) = _reslice(s, rstrip(f, String(s)))
_reslice(s::SubString{String}, p::SubString{String}) = SubString{String}(s.string, p.ncodeunits == 0 ? 0 : s.offset + p.offset, p.ncodeunits)
strip(f::Function, s::Union{String,SubString{String}}) = lstrip(f, rstrip(f, s))
lstrip(s::Union{String,SubString{String}}) = lstrip(isspace, s)
rstrip(s::Union{String,SubString{String}}) = rstrip(isspace, s)
strip(s::Union{String,SubString{String}}) = strip(isspace, s)
lstrip(s::Union{String,SubString{String}}, chars) = lstrip(_strip_set(chars), s)
rstrip(s::Union{String,SubString{String}}, chars) = rstrip(_strip_set(chars), s)
strip(s::Union{String,SubString{String}}, chars) = strip(_strip_set(chars), s)
# One trailing newline (`\n` or `\r\n`) removed.
function chomp(s::String)
    n = Core.string_ncodeunits(s)
    endswith(s, "\r\n") && return SubString(s, 1, n - 2)
    endswith(s, "\n") && return SubString(s, 1, n - 1)
    SubString(s)
end
