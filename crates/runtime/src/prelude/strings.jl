# Strings and output: concatenation, comparison, `string`, `repr`, `print`, `show`, `error`.

*(a::String, b::String) = Core.string_concat(a, b)
length(s::String) = Core.string_len(s)
==(a::String, b::String) = Core.egal(a, b)
# Strings sort by their code points (byte by byte, as Julia compares them).
cmp(a::String, b::String) = Core.string_cmp(a, b)
isless(a::String, b::String) = Core.string_cmp(a, b) < 0
# Symbols compare by their names' bytes.
cmp(a::Symbol, b::Symbol) = Core.string_cmp(string(a), string(b))
isless(a::Symbol, b::Symbol) = Core.string_cmp(string(a), string(b)) < 0
<(a::String, b::String) = isless(a, b)
<=(a::String, b::String) = !isless(b, a)
string(x) = Core.string(x)
Symbol(s::String) = Core.symbol(s)
Symbol(s::Symbol) = s
Symbol(x, xs...) = Core.symbol(string(x, xs...))
String(s::Symbol) = string(s)
function string(xs...)
    s = ""
    for x in xs
        s = Core.string_concat(s, Core.string(x))
    end
    s
end
repr(x) = Core.repr(x)
print(x) = Core.print(x)
function print(xs...)
    for x in xs
        Core.print(x)
    end
    nothing
end
function println(xs...)
    for x in xs
        Core.print(x)
    end
    Core.print("\n")
    nothing
end
show(x) = Core.show(x)
error(msg::String) = Core.throw_error(msg)
function error(xs...)
    s = ""
    for x in xs
        s = Core.string_concat(s, Core.string(x))
    end
    Core.throw_error(s)
end

# Searching, case, replacing, padding, joining and parsing strings.
ncodeunits(s::String) = Core.string_ncodeunits(s)
sizeof(s::String) = Core.string_ncodeunits(s)
isempty(s::String) = Core.string_ncodeunits(s) == 0
occursin(needle::String, haystack::String) = Core.string_find(haystack, needle, 1) != 0
contains(haystack::String, needle::String) = occursin(needle, haystack)
startswith(s::String, prefix::String) =
    Core.string_ncodeunits(prefix) <= Core.string_ncodeunits(s) && Core.string_find(s, prefix, 1) == 1
function endswith(s::String, suffix::String)
    from = Core.string_ncodeunits(s) - Core.string_ncodeunits(suffix) + 1
    from >= 1 && Core.string_find(s, suffix, from) == from
end
uppercase(s::String) = Core.string_case(s, true)
lowercase(s::String) = Core.string_case(s, false)
function join(xs, delim = "")
    s = ""
    first = true
    for x in xs
        s = first ? string(x) : string(s, delim, x)
        first = false
    end
    s
end
function join(xs, delim, last)
    n = length(xs)
    s = ""
    k = 0
    for x in xs
        k += 1
        s = k == 1 ? string(x) : string(s, k == n ? last : delim, x)
    end
    s
end
# Padding counts characters; Julia counts their display width, which differs for wide
# characters (East Asian scripts, emoji): text outside ASCII is not supported yet, nor a pad of
# several characters.
function _pad(s::String, n::Int64, p::String, left::Bool)
    (_ascii(s) && _ascii(p)) ||
        throw(ArgumentError("not supported yet: padding text with characters outside ASCII"))
    length(p) == 1 || throw(ArgumentError("not supported yet: padding with a string of other than one character"))
    m = n - length(s)
    m <= 0 && return s
    left ? string(repeat(p, m), s) : string(s, repeat(p, m))
end
_ascii(s::String) = Core.string_ncodeunits(s) == length(s)
lpad(s, n::Int64, p::String = " ") = _pad(string(s), n, p, true)
rpad(s, n::Int64, p::String = " ") = _pad(string(s), n, p, false)
parse(::Type{Int64}, s::String) = Core.string_parse(Int64, s)
parse(::Type{Float64}, s::String) = Core.string_parse(Float64, s)
# The first occurrence of `pat` in `s` (from byte `i` on for `findnext`) as Julia gives it:
# from its first byte to the first byte of its last character, or `nothing`. (A match of valid
# UTF-8 text can only start at a character, so the search goes by bytes.)
function findnext(pat::String, s::String, i::Int64)
    1 <= i <= Core.string_ncodeunits(s) + 1 || Core.throw_bounds(s, i)
    at = Core.string_find(s, pat, i)
    at == 0 ? nothing : at:(at + Core.string_index(pat, Core.string_ncodeunits(pat), 0) - 1)
end
findfirst(pat::String, s::String) = findnext(pat, s, 1)
