# Int64: wrapping arithmetic, division, bit operations and shifts, powers.

+(x::Int64, y::Int64) = Core.add_int(x, y)
-(x::Int64, y::Int64) = Core.sub_int(x, y)
*(x::Int64, y::Int64) = Core.mul_int(x, y)
-(x::Int64) = Core.neg_int(x)
+(x::Number) = x
÷(x::Int64, y::Int64) = Core.sdiv_int(x, y)
div(x::Int64, y::Int64) = Core.sdiv_int(x, y)
%(x::Int64, y::Int64) = Core.srem_int(x, y)
rem(x::Int64, y::Int64) = Core.srem_int(x, y)
function mod(x::Int64, y::Int64)
    r = Core.srem_int(x, y)
    (r != 0 && ((r < 0) != (y < 0))) ? r + y : r
end
fld(x::Int64, y::Int64) = div(x - mod(x, y), y)
cld(x::Int64, y::Int64) = -fld(-x, y)
==(x::Int64, y::Int64) = Core.eq_int(x, y)
!=(x::Int64, y::Int64) = Core.ne_int(x, y)
<(x::Int64, y::Int64) = Core.slt_int(x, y)
<=(x::Int64, y::Int64) = Core.sle_int(x, y)
&(x::Int64, y::Int64) = Core.and_int(x, y)
|(x::Int64, y::Int64) = Core.or_int(x, y)
xor(x::Int64, y::Int64) = Core.xor_int(x, y)
⊻(x, y) = xor(x, y)
# Shifts by any amount, as Julia defines them: a negative amount shifts the other way, and
# shifting out every bit gives 0 (or -1 for `>>` of a negative number).
<<(x::Int64, n::Int64) = n >= 0 ? (n < 64 ? Core.shl_int(x, n) : 0) : x >> _shift_amount(n)
>>(x::Int64, n::Int64) = n >= 0 ? Core.ashr_int(x, n < 64 ? n : 63) : x << _shift_amount(n)
>>>(x::Int64, n::Int64) = n >= 0 ? (n < 64 ? Core.lshr_int(x, n) : 0) : x << _shift_amount(n)
_shift_amount(n::Int64) = n == typemin(Int64) ? typemax(Int64) : -n
# The integer square root: the largest `s` with `s^2 <= x`.
function isqrt(x::Int64)
    x == 0 && return 0
    s = trunc(Int64, sqrt(Float64(x)))
    s = (s + div(x, s)) >> 1
    s * s > x ? s - 1 : s
end
/(x::Int64, y::Int64) = Float64(x) / Float64(y)
function ^(x::Int64, n::Int64)
    if n < 0
        Core.throw_domain(n, string("Cannot raise an integer x to a negative power ", n, ".\nConvert input to float."))
    end
    r = 1
    b = x
    while n > 0
        if n & 1 == 1
            r = r * b
        end
        b = b * b
        n = n ÷ 2
    end
    r
end
abs(x::Int64) = x < 0 ? -x : x
sign(x::Int64) = x > 0 ? 1 : (x < 0 ? -1 : 0)
iseven(x::Int64) = x % 2 == 0
isodd(x::Int64) = x % 2 != 0
max(x::Int64, y::Int64) = x < y ? y : x
min(x::Int64, y::Int64) = y < x ? y : x
# Division with its remainder, and the modulus in `1:y` (`(0, y]` for a positive `y`).
divrem(x, y) = (div(x, y), rem(x, y))
fldmod(x, y) = (fld(x, y), mod(x, y))
mod1(x::T, y::T) where {T<:Real} = (m = mod(x, y); ifelse(m == 0, y, m))
mod1(x::Real, y::Real) = mod1(promote(x, y)...)
fld1(x::T, y::T) where {T<:Real} = (m = mod1(x, y); fld((x - m) + y, y))
fld1(x::Real, y::Real) = fld1(promote(x, y)...)
fldmod1(x, y) = (fld1(x, y), mod1(x, y))
