# The integer types besides Int64: Int8, Int16, Int32 and UInt8, UInt16, UInt32, UInt64
# (`UInt`), with Julia's wrapping arithmetic at their width, promotions (`0x01 + 1` is an
# Int64, `0x01 + 0x0001` a UInt16, `UInt64` with any signed type a UInt64), checked
# conversions (`UInt8(300)` is `InexactError: trunc(UInt8, 300)`), division, shifts and bit
# counts. Unsigned numbers show in hexadecimal (`0x0a`) and print in decimal, as Julia's.
# Hexadecimal, binary and octal literals are unsigned integers sized by their digits.
#
# Each holds its value in an Int64 field: sign-extended for the signed types, zero-extended
# for the narrow unsigned ones, the 64 bits themselves (two's complement) for UInt64.

struct Int8 <: Signed
    _bits::Int64
    Int8(x::Int64) = -128 <= x <= 127 ? new(x) : _inexact_int(Int8, x)
end
struct Int16 <: Signed
    _bits::Int64
    Int16(x::Int64) = -32768 <= x <= 32767 ? new(x) : _inexact_int(Int16, x)
end
struct Int32 <: Signed
    _bits::Int64
    Int32(x::Int64) = -2147483648 <= x <= 2147483647 ? new(x) : _inexact_int(Int32, x)
end
struct UInt8 <: Unsigned
    _bits::Int64
    UInt8(x::Int64) = 0 <= x <= 255 ? new(x) : _inexact_int(UInt8, x)
end
struct UInt16 <: Unsigned
    _bits::Int64
    UInt16(x::Int64) = 0 <= x <= 65535 ? new(x) : _inexact_int(UInt16, x)
end
struct UInt32 <: Unsigned
    _bits::Int64
    UInt32(x::Int64) = 0 <= x <= 4294967295 ? new(x) : _inexact_int(UInt32, x)
end
struct UInt64 <: Unsigned
    _bits::Int64
    UInt64(x::Int64) = x >= 0 ? new(x) : _inexact_int(UInt64, x)
end
const UInt = UInt64

const _SmallSigned = Union{Int8,Int16,Int32}
const _SmallUnsigned = Union{UInt8,UInt16,UInt32}
# The types held in an Int64 field.
const _BitInt = Union{Int8,Int16,Int32,UInt8,UInt16,UInt32,UInt64}
const _BitSigned = Union{Int8,Int16,Int32,Int64}
const _BitUnsigned = Union{UInt8,UInt16,UInt32,UInt64}
const _BitInteger = Union{Int8,Int16,Int32,Int64,UInt8,UInt16,UInt32,UInt64}

_nbits(::Type{Int8}) = 8
_nbits(::Type{Int16}) = 16
_nbits(::Type{Int32}) = 32
_nbits(::Type{Int64}) = 64
_nbits(::Type{UInt8}) = 8
_nbits(::Type{UInt16}) = 16
_nbits(::Type{UInt32}) = 32
_nbits(::Type{UInt64}) = 64
sizeof(::Type{T}) where {T<:_BitInteger} = _nbits(T) >> 3
sizeof(::Type{Float64}) = 8
sizeof(::Type{Float32}) = 4
sizeof(::Type{Bool}) = 1
sizeof(x::Union{_BitInteger,Float64,Float32,Bool}) = sizeof(typeof(x))

# The value of bits `b` wrapped to `T`'s width (Julia's `trunc_int`/`sext_int`).
_wrap(::Type{Int8}, b::Int64) = Core.new(Int8, Core.ashr_int(Core.shl_int(b, 56), 56))
_wrap(::Type{Int16}, b::Int64) = Core.new(Int16, Core.ashr_int(Core.shl_int(b, 48), 48))
_wrap(::Type{Int32}, b::Int64) = Core.new(Int32, Core.ashr_int(Core.shl_int(b, 32), 32))
_wrap(::Type{Int64}, b::Int64) = b
_wrap(::Type{UInt8}, b::Int64) = Core.new(UInt8, b & 255)
_wrap(::Type{UInt16}, b::Int64) = Core.new(UInt16, b & 65535)
_wrap(::Type{UInt32}, b::Int64) = Core.new(UInt32, b & 4294967295)
_wrap(::Type{UInt64}, b::Int64) = Core.new(UInt64, b)
# The Int64 holding `x` (for UInt64, its bits).
_bits(x::_BitInt) = x._bits
_bits(x::Int64) = x
_bits(x::Bool) = Core.bool_to_int(x)
# `x`'s bits zero-extended from its width (what a logical shift or a bit count sees).
_ubits(x::T) where {T<:_SmallSigned} = x._bits & (Core.shl_int(1, _nbits(T)) - 1)
_ubits(x::_BitUnsigned) = x._bits
_ubits(x::Int64) = x
# Whether a UInt64 is beyond Int64's range (its bits read as negative).
_huge(x::UInt64) = x._bits < 0
_huge(x) = false

# Conversions between integer types: the same value in the new type, or Julia's InexactError
# (`convert` between types of one size, `trunc` otherwise).
function _inexact_int(::Type{T}, x) where {T}
    throw(InexactError(sizeof(T) == sizeof(x) ? :convert : :trunc, T, x))
end
_fits(::Type{UInt64}, x) = x isa Unsigned || _bits(x) >= 0
_fits(::Type{Int64}, x) = !_huge(x)
_fits(::Type{T}, x) where {T<:Union{_SmallSigned,_SmallUnsigned}} =
    !_huge(x) && _bits(typemin(T)) <= _bits(x) <= _bits(typemax(T))
_int(::Type{T}, x) where {T} = _fits(T, x) ? _wrap(T, _bits(x)) : _inexact_int(T, x)
# From a float: an integral value in range, else `InexactError: UInt8(2.5)`.
# (`f` and `shown`: the function and value Julia's InexactError names.)
function _float_int(::Type{T}, x, f::Symbol = Symbol(string(T)), shown = x) where {T}
    if isinteger(x) && -9.223372036854775808e18 <= x < 9.223372036854775808e18
        i = Core.fptosi(Int64, x)
        _fits(T, i) && return _wrap(T, i)
    elseif T === UInt64 && isinteger(x) && 0.0 <= x < 1.8446744073709552e19
        return Core.new(UInt64, Core.fptosi(Int64, x - 9.223372036854775808e18) + typemin(Int64))
    end
    throw(InexactError(f, T, shown))
end
Int8(x::_BitInt) = _int(Int8, x)
Int8(x::Bool) = Core.new(Int8, Core.bool_to_int(x))
Int8(c::Char) = _int(Int8, c._code)
Int8(x::Union{Float64,Float32}) = _float_int(Int8, x)
Int16(x::_BitInt) = _int(Int16, x)
Int16(x::Bool) = Core.new(Int16, Core.bool_to_int(x))
Int16(c::Char) = _int(Int16, c._code)
Int16(x::Union{Float64,Float32}) = _float_int(Int16, x)
Int32(x::_BitInt) = _int(Int32, x)
Int32(x::Bool) = Core.new(Int32, Core.bool_to_int(x))
Int32(c::Char) = _int(Int32, c._code)
Int32(x::Union{Float64,Float32}) = _float_int(Int32, x)
UInt8(x::_BitInt) = _int(UInt8, x)
UInt8(x::Bool) = Core.new(UInt8, Core.bool_to_int(x))
UInt8(c::Char) = _int(UInt8, c._code)
UInt8(x::Union{Float64,Float32}) = _float_int(UInt8, x)
UInt16(x::_BitInt) = _int(UInt16, x)
UInt16(x::Bool) = Core.new(UInt16, Core.bool_to_int(x))
UInt16(c::Char) = _int(UInt16, c._code)
UInt16(x::Union{Float64,Float32}) = _float_int(UInt16, x)
UInt32(x::_BitInt) = _int(UInt32, x)
UInt32(x::Bool) = Core.new(UInt32, Core.bool_to_int(x))
UInt32(c::Char) = _int(UInt32, c._code)
UInt32(x::Union{Float64,Float32}) = _float_int(UInt32, x)
UInt64(x::_BitInt) = _int(UInt64, x)
UInt64(x::Bool) = Core.new(UInt64, Core.bool_to_int(x))
UInt64(c::Char) = _int(UInt64, c._code)
UInt64(x::Union{Float64,Float32}) = _float_int(UInt64, x)
Int64(x::_BitInt) = _int(Int64, x)
# `round(T, x)` is `trunc(T, round(x))`, and so on, as Julia's (and named so in its errors).
floor(::Type{T}, x::AbstractFloat) where {T<:_BitInt} = (y = floor(x); _float_int(T, y, :trunc, y))
ceil(::Type{T}, x::AbstractFloat) where {T<:_BitInt} = (y = ceil(x); _float_int(T, y, :trunc, y))
round(::Type{T}, x::AbstractFloat) where {T<:_BitInt} = (y = round(x); _float_int(T, y, :trunc, y))
trunc(::Type{T}, x::AbstractFloat) where {T<:_BitInt} = _float_int(T, trunc(x), :trunc, x)
floor(::Type{T}, x::Integer) where {T<:_BitInteger} = T(x)
ceil(::Type{T}, x::Integer) where {T<:_BitInteger} = T(x)
round(::Type{T}, x::Integer) where {T<:_BitInteger} = T(x)
trunc(::Type{T}, x::Integer) where {T<:_BitInteger} = T(x)
floor(x::_BitInt) = x
ceil(x::_BitInt) = x
round(x::_BitInt) = x
trunc(x::_BitInt) = x
Float64(x::_BitInt) = Core.sitofp(Float64, x._bits)
Float32(x::_BitInt) = Core.sitofp(Float32, x._bits)
# A UInt64 beyond Int64's range: half of it, its lowest bit kept as a sticky bit so the
# conversion rounds once, doubled.
function Float64(x::UInt64)
    b = x._bits
    b >= 0 && return Core.sitofp(Float64, b)
    2.0 * Core.sitofp(Float64, Core.or_int(Core.lshr_int(b, 1), b & 1))
end
function Float32(x::UInt64)
    b = x._bits
    b >= 0 && return Core.sitofp(Float32, b)
    2.0f0 * Core.sitofp(Float32, Core.or_int(Core.lshr_int(b, 1), b & 1))
end
function Bool(x::_BitInt)
    x._bits == 0 && return false
    x._bits == 1 && return true
    throw(InexactError(:Bool, Bool, x))
end
convert(::Type{T}, x::Real) where {T<:_BitInt} = T(x)
convert(::Type{T}, x::T) where {T<:_BitInt} = x
float(x::_BitInt) = Float64(x)
float(::Type{T}) where {T<:_BitInt} = Float64
Integer(x::Integer) = x
Integer(x::Union{Float64,Float32}) = Int64(x)
Signed(x::Signed) = x
Unsigned(x::Unsigned) = x
Signed(x::UInt8) = Int8(x)
Signed(x::UInt16) = Int16(x)
Signed(x::UInt32) = Int32(x)
Signed(x::UInt64) = Int64(x)
Unsigned(x::Int8) = UInt8(x)
Unsigned(x::Int16) = UInt16(x)
Unsigned(x::Int32) = UInt32(x)
Unsigned(x::Int64) = UInt64(x)
# `signed`/`unsigned`: the same bits read with or without a sign (no check).
signed(x::Signed) = x
unsigned(x::Unsigned) = x
signed(x::UInt8) = _wrap(Int8, x._bits)
signed(x::UInt16) = _wrap(Int16, x._bits)
signed(x::UInt32) = _wrap(Int32, x._bits)
signed(x::UInt64) = x._bits
unsigned(x::Int8) = _wrap(UInt8, x._bits)
unsigned(x::Int16) = _wrap(UInt16, x._bits)
unsigned(x::Int32) = _wrap(UInt32, x._bits)
unsigned(x::Int64) = Core.new(UInt64, x)
signed(x::Bool) = Int64(x)
unsigned(x::Bool) = UInt64(x)
# `x % T`: `x` wrapped to `T`'s width (Julia's `rem(x, T)`).
rem(x::_BitInteger, ::Type{T}) where {T<:_BitInteger} = _wrap(T, _bits(x))
rem(x::Bool, ::Type{T}) where {T<:_BitInteger} = _wrap(T, _bits(x))
%(x::Union{_BitInteger,Bool}, ::Type{T}) where {T<:_BitInteger} = rem(x, T)
mod(x::Union{_BitInteger,Bool}, ::Type{T}) where {T<:_BitInteger} = rem(x, T)
reinterpret(::Type{UInt64}, x::Int64) = Core.new(UInt64, x)
reinterpret(::Type{Int64}, x::UInt64) = x._bits
reinterpret(::Type{UInt64}, x::Float64) = Core.new(UInt64, Core.bitcast(Int64, x))
reinterpret(::Type{Float64}, x::UInt64) = Core.bitcast(Float64, x._bits)
reinterpret(::Type{T}, x::T) where {T<:_BitInteger} = x
reinterpret(::Type{Int8}, x::UInt8) = signed(x)
reinterpret(::Type{UInt8}, x::Int8) = unsigned(x)
reinterpret(::Type{Int16}, x::UInt16) = signed(x)
reinterpret(::Type{UInt16}, x::Int16) = unsigned(x)
reinterpret(::Type{Int32}, x::UInt32) = signed(x)
reinterpret(::Type{UInt32}, x::Int32) = unsigned(x)

typemin(::Type{Int8}) = Core.new(Int8, -128)
typemax(::Type{Int8}) = Core.new(Int8, 127)
typemin(::Type{Int16}) = Core.new(Int16, -32768)
typemax(::Type{Int16}) = Core.new(Int16, 32767)
typemin(::Type{Int32}) = Core.new(Int32, -2147483648)
typemax(::Type{Int32}) = Core.new(Int32, 2147483647)
typemin(::Type{T}) where {T<:_BitUnsigned} = Core.new(T, 0)
typemax(::Type{UInt8}) = Core.new(UInt8, 255)
typemax(::Type{UInt16}) = Core.new(UInt16, 65535)
typemax(::Type{UInt32}) = Core.new(UInt32, 4294967295)
typemax(::Type{UInt64}) = Core.new(UInt64, -1)
typemin(x::_BitInt) = typemin(typeof(x))
typemax(x::_BitInt) = typemax(typeof(x))
zero(::Type{T}) where {T<:_BitInt} = Core.new(T, 0)
one(::Type{T}) where {T<:_BitInt} = Core.new(T, 1)
widen(::Type{T}) where {T<:Union{Int8,Int16}} = Int32
widen(::Type{Int32}) = Int64
widen(::Type{T}) where {T<:Union{UInt8,UInt16}} = UInt32
widen(::Type{UInt32}) = UInt64
widen(x::Union{Int8,Int16,Int32,UInt8,UInt16,UInt32}) = widen(typeof(x))(x)

# Arithmetic wraps at the type's width.
+(x::T, y::T) where {T<:_BitInt} = _wrap(T, x._bits + y._bits)
-(x::T, y::T) where {T<:_BitInt} = _wrap(T, x._bits - y._bits)
*(x::T, y::T) where {T<:_BitInt} = _wrap(T, x._bits * y._bits)
-(x::T) where {T<:_BitInt} = _wrap(T, -x._bits)
~(x::T) where {T<:_BitInt} = _wrap(T, xor(x._bits, -1))
(&)(x::T, y::T) where {T<:_BitInt} = Core.new(T, x._bits & y._bits)
(|)(x::T, y::T) where {T<:_BitInt} = Core.new(T, x._bits | y._bits)
xor(x::T, y::T) where {T<:_BitInt} = Core.new(T, xor(x._bits, y._bits))
/(x::T, y::T) where {T<:_BitInt} = Float64(x) / Float64(y)
==(x::T, y::T) where {T<:_BitInt} = x._bits == y._bits
!=(x::T, y::T) where {T<:_BitInt} = x._bits != y._bits
<(x::T, y::T) where {T<:Union{_SmallSigned,_SmallUnsigned}} = x._bits < y._bits
<=(x::T, y::T) where {T<:Union{_SmallSigned,_SmallUnsigned}} = x._bits <= y._bits
# UInt64 compares its bits unsigned: flipping the top bit orders them as signed numbers.
_ult(a::Int64, b::Int64) = xor(a, typemin(Int64)) < xor(b, typemin(Int64))
<(x::UInt64, y::UInt64) = _ult(x._bits, y._bits)
<=(x::UInt64, y::UInt64) = !_ult(y._bits, x._bits)
isless(x::T, y::T) where {T<:_BitInt} = x < y
max(x::T, y::T) where {T<:_BitInt} = x < y ? y : x
min(x::T, y::T) where {T<:_BitInt} = y < x ? y : x
# A signed and an unsigned number compare by value, as Julia's do (`-1 < 0x01`).
==(x::_BitSigned, y::_BitUnsigned) = (x >= 0) & (unsigned(x) == y)
==(x::_BitUnsigned, y::_BitSigned) = (y >= 0) & (x == unsigned(y))
<(x::_BitSigned, y::_BitUnsigned) = (x < 0) | (unsigned(x) < y)
<(x::_BitUnsigned, y::_BitSigned) = (y >= 0) & (x < unsigned(y))
<=(x::_BitSigned, y::_BitUnsigned) = (x < 0) | (unsigned(x) <= y)
<=(x::_BitUnsigned, y::_BitSigned) = (y >= 0) & (x <= unsigned(y))
isequal(x::_BitInteger, y::_BitInteger) = x == y

# Division: DivideError for a zero divisor and for `typemin ÷ -1` of a signed type.
function div(x::T, y::T) where {T<:_SmallSigned}
    y._bits == 0 && throw(DivideError())
    y._bits == -1 && x == typemin(T) && throw(DivideError())
    Core.new(T, Core.sdiv_int(x._bits, y._bits))
end
function rem(x::T, y::T) where {T<:_SmallSigned}
    y._bits == 0 && throw(DivideError())
    Core.new(T, Core.srem_int(x._bits, y._bits))
end
function div(x::T, y::T) where {T<:_SmallUnsigned}
    y._bits == 0 && throw(DivideError())
    Core.new(T, Core.sdiv_int(x._bits, y._bits))
end
function rem(x::T, y::T) where {T<:_SmallUnsigned}
    y._bits == 0 && throw(DivideError())
    Core.new(T, Core.srem_int(x._bits, y._bits))
end
# Unsigned 64-bit quotient and remainder from signed operations (Hacker's Delight 9-3).
function _udivrem(a::Int64, b::Int64)
    b == 0 && throw(DivideError())
    if b < 0
        # A divisor of 2^63 or more goes once or not at all.
        return _ult(a, b) ? (0, a) : (1, a - b)
    end
    if a >= 0
        return (Core.sdiv_int(a, b), Core.srem_int(a, b))
    end
    q = Core.shl_int(Core.sdiv_int(Core.lshr_int(a, 1), b), 1)
    r = a - q * b
    _ult(r, b) ? (q, r) : (q + 1, r - b)
end
div(x::UInt64, y::UInt64) = Core.new(UInt64, _udivrem(x._bits, y._bits)[1])
rem(x::UInt64, y::UInt64) = Core.new(UInt64, _udivrem(x._bits, y._bits)[2])
÷(x::T, y::T) where {T<:_BitInt} = div(x, y)
%(x::T, y::T) where {T<:_BitInt} = rem(x, y)
fld(x::T, y::T) where {T<:_BitUnsigned} = div(x, y)
cld(x::T, y::T) where {T<:_BitUnsigned} = (d = div(x, y); d * y == x ? d : d + one(T))
mod(x::T, y::T) where {T<:_BitUnsigned} = rem(x, y)
function fld(x::T, y::T) where {T<:_SmallSigned}
    d = div(x, y)
    signbit(xor(x, y)) && d * y != x ? d - one(T) : d
end
function cld(x::T, y::T) where {T<:_SmallSigned}
    d = div(x, y)
    ((x > zero(T)) == (y > zero(T))) && d * y != x ? d + one(T) : d
end
mod(x::T, y::T) where {T<:_SmallSigned} = y._bits == -1 ? zero(T) : x - fld(x, y) * y
# A signed and an unsigned operand divide as Julia's do: the magnitudes unsigned, the sign put
# back (`div(-7, 0x02) == -3`).
div(x::_BitSigned, y::_BitUnsigned) = flipsign(signed(div(unsigned(abs(x)), y)), x)
div(x::_BitUnsigned, y::_BitSigned) = unsigned(flipsign(signed(div(x, unsigned(abs(y)))), y))
rem(x::_BitSigned, y::_BitUnsigned) = flipsign(signed(rem(unsigned(abs(x)), y)), x)
rem(x::_BitUnsigned, y::_BitSigned) = rem(x, unsigned(abs(y)))
fld(x::_BitSigned, y::_BitUnsigned) = div(x, y) - (signbit(x) & (rem(x, y) != 0))
fld(x::_BitUnsigned, y::_BitSigned) = div(x, y) - (signbit(y) & (rem(x, y) != 0))
cld(x::_BitSigned, y::_BitUnsigned) = div(x, y) + (!signbit(x) & (rem(x, y) != 0))
cld(x::_BitUnsigned, y::_BitSigned) = div(x, y) + (!signbit(y) & (rem(x, y) != 0))
mod(x::_BitSigned, y::_BitUnsigned) = rem(y + unsigned(rem(x, y)), y)
mod(x::_BitUnsigned, y::_BitSigned) = rem(y + signed(rem(x, y)), y)
÷(x::_BitSigned, y::_BitUnsigned) = div(x, y)
÷(x::_BitUnsigned, y::_BitSigned) = div(x, y)
%(x::_BitSigned, y::_BitUnsigned) = rem(x, y)
%(x::_BitUnsigned, y::_BitSigned) = rem(x, y)

# Shifts by any amount within the type's width (`0x01 << 8 == 0x00`); a negative amount
# shifts the other way.
_shl(x::T, n::Int64) where {T<:_BitInt} = n < _nbits(T) ? _wrap(T, Core.shl_int(x._bits, n)) : zero(T)
_ashr(x::T, n::Int64) where {T<:_SmallSigned} = Core.new(T, Core.ashr_int(x._bits, n < 63 ? n : 63))
_ashr(x::T, n::Int64) where {T<:_BitUnsigned} = _lshr(x, n)
_lshr(x::T, n::Int64) where {T<:_BitInt} = n < _nbits(T) ? _wrap(T, Core.lshr_int(_ubits(x), n)) : zero(T)
<<(x::_BitInt, n::Int64) = n >= 0 ? _shl(x, n) : _ashr(x, _shift_amount(n))
>>(x::_BitInt, n::Int64) = n >= 0 ? _ashr(x, n) : _shl(x, _shift_amount(n))
>>>(x::_BitInt, n::Int64) = n >= 0 ? _lshr(x, n) : _shl(x, _shift_amount(n))
# An unsigned shift count only shifts one way; one beyond Int64 shifts everything out.
_shift_count(n::_BitUnsigned) = n._bits < 0 ? typemax(Int64) : n._bits
_shift_count(n::_SmallSigned) = n._bits
<<(x::_BitInteger, n::_BitInt) = x << _shift_count(n)
>>(x::_BitInteger, n::_BitInt) = x >> _shift_count(n)
>>>(x::_BitInteger, n::_BitInt) = x >>> _shift_count(n)

^(x::_BitInt, n::Int64) = _power_by_squaring(x, n)
^(x::_BitInt, n::_BitInt) = x ^ Int64(n)
^(x::Int64, n::_BitInt) = x ^ Int64(n)

abs(x::_SmallSigned) = x._bits < 0 ? -x : x
abs(x::_BitUnsigned) = x
sign(x::T) where {T<:_BitInt} = x._bits == 0 ? zero(T) : (x < zero(T) ? -one(T) : one(T))
signbit(x::_SmallSigned) = x._bits < 0
signbit(x::_BitUnsigned) = false
flipsign(x::T, y::T) where {T<:_BitSigned} = signbit(y) ? -x : x
flipsign(x::_BitSigned, y::_BitSigned) = signbit(y) ? -x : x
isinteger(x::_BitInt) = true
iseven(x::_BitInt) = x._bits & 1 == 0
isodd(x::_BitInt) = x._bits & 1 == 1
iszero(x::_BitInt) = x._bits == 0
isone(x::_BitInt) = x._bits == 1
count_ones(x::_BitInt) = count_ones(_ubits(x))
count_zeros(x::T) where {T<:_BitInt} = _nbits(T) - count_ones(x)
leading_zeros(x::T) where {T<:_BitInt} = leading_zeros(_ubits(x)) - (64 - _nbits(T))
trailing_zeros(x::T) where {T<:_BitInt} = min(trailing_zeros(_ubits(x)), _nbits(T))
leading_ones(x::_BitInt) = leading_zeros(~x)
trailing_ones(x::_BitInt) = trailing_zeros(~x)
ispow2(x::_BitInt) = x > zero(x) && count_ones(x) == 1
# Bytes in the other order (Julia's `bswap`).
function bswap(x::T) where {T<:_BitInt}
    b = _ubits(x)
    r = 0
    for k in 1:sizeof(T)
        r = Core.or_int(Core.shl_int(r, 8), b & 255)
        b = Core.lshr_int(b, 8)
    end
    _wrap(T, r)
end
bswap(x::Union{Int8,UInt8}) = x

# `string(x; base, pad)`: the digits of an integer of any of these types (a UInt64 beyond
# Int64's range by unsigned division).
function string(x::_BitInt; base::Int64 = 10, pad::Int64 = 1)
    base == 10 && pad <= 1 && return Core.string(x)
    _huge(x) || return string(x._bits; base = base, pad = pad)
    (2 <= base <= 62) || Core.throw_domain(base, "base must satisfy 2 ≤ abs(base) ≤ 62")
    chars = base <= 36 ? "0123456789abcdefghijklmnopqrstuvwxyz" : "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    s = ""
    b = x._bits
    while b != 0
        q, r = _udivrem(b, base)
        s = string(chars[r + 1]) * s
        b = q
    end
    while ncodeunits(s) < pad
        s = "0" * s
    end
    s
end
ndigits(x::_BitInt; base::Int64 = 10, pad::Int64 = 1) = ncodeunits(string(x; base = base, pad = pad))
function digits(x::_BitInt; base::Int64 = 10, pad::Int64 = 1)
    _huge(x) || return digits(x._bits; base = base, pad = pad)
    _check_base(base)
    out = Int64[]
    b = x._bits
    while b != 0 || length(out) < pad
        q, r = _udivrem(b, base)
        push!(out, r)
        b = q
    end
    out
end
bitstring(x::T) where {T<:_BitInteger} = string(Core.new(UInt64, _ubits(x)); base = 2, pad = _nbits(T))
parse(::Type{T}, s::AbstractString) where {T<:Union{_SmallSigned,_SmallUnsigned}} = T(parse(Int64, String(s)))
