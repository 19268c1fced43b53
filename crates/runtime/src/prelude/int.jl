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
# (Each by a non-negative amount first, so that no shift calls another and each inlines.)
_shl(x::Int64, n::Int64) = n < 64 ? Core.shl_int(x, n) : 0
_ashr(x::Int64, n::Int64) = Core.ashr_int(x, n < 64 ? n : 63)
_lshr(x::Int64, n::Int64) = n < 64 ? Core.lshr_int(x, n) : 0
<<(x::Int64, n::Int64) = n >= 0 ? _shl(x, n) : _ashr(x, _shift_amount(n))
>>(x::Int64, n::Int64) = n >= 0 ? _ashr(x, n) : _shl(x, _shift_amount(n))
>>>(x::Int64, n::Int64) = n >= 0 ? _lshr(x, n) : _shl(x, _shift_amount(n))
_shift_amount(n::Int64) = n == typemin(Int64) ? typemax(Int64) : -n
# The integer square root: the largest `s` with `s^2 <= x`.
function isqrt(x::Int64)
    x == 0 && return 0
    s = trunc(Int64, sqrt(Float64(x)))
    s = (s + div(x, s)) >> 1
    s * s > x ? s - 1 : s
end
/(x::Int64, y::Int64) = Float64(x) / Float64(y)
# Integer powers by squaring, wrapping as the type's multiplication does.
function _power_by_squaring(x::T, n::Int64) where {T}
    if n < 0
        Core.throw_domain(n, string("Cannot raise an integer x to a negative power ", n, ".\nConvert input to float."))
    end
    r = one(T)
    b = x
    while n > 0
        if n & 1 == 1
            r = r * b
        end
        b = b * b
        n = n >> 1
    end
    r
end
^(x::Int64, n::Int64) = _power_by_squaring(x, n)
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
# `n!` of an `Int64` up to 20! (beyond it overflows, as Julia's table lookup reports).
function factorial(n::Int64)
    n < 0 && throw(DomainError(n, "`n` must not be negative."))
    n > 20 && throw(OverflowError("$n is too large to look up in the table; consider using `factorial(big($n))` instead"))
    f = 1
    for i in 2:n
        f *= i
    end
    f
end
# The binomial coefficient of integers (also of a negative `n`, with Julia's sign rule), each
# step's product `x * nn / rr` taken exactly: it raises OverflowError where that leaves Int64.
function binomial(n::Int64, k::Int64)
    n0, k0 = n, k
    k < 0 && return 0
    sgn = 1
    if n < 0
        n = -n + k - 1
        if isodd(k)
            sgn = -sgn
        end
    end
    k > n && return 0
    (k == 0 || k == n) && return sgn
    k == 1 && return sgn * n
    if k > (n >> 1)
        k = n - k
    end
    x = nn = n - k + 1
    nn += 1
    rr = 2
    while rr <= k
        # `rr` divides `x * nn`, so `rr ÷ gcd(x, rr)` divides `nn`.
        g = gcd(x, rr)
        a = div(x, g)
        b = div(nn, div(rr, g))
        a > div(typemax(Int64), b) && throw(OverflowError("binomial($n0, $k0) overflows"))
        x = a * b
        rr += 1
        nn += 1
    end
    sgn < 0 ? -x : x
end
# The generalized coefficient `x (x-1) ⋯ (x-k+1) / k!` of any number `x`, each factor divided
# by its `i` as it is multiplied in (zero for a negative `k`).
function binomial(x::Number, k::Int64)
    k < 0 && return zero(x) / one(k)
    p = one(x) / one(k)
    for i in 1:k
        p *= (x - (i - 1)) / i
    end
    p
end

# Bits of an `Int64`: counted by shifting (two's complement, as Julia's intrinsics); `~x`
# flips them all.
~(x::Int64) = xor(x, -1)
~(x::Bool) = !x
function count_ones(x::Int64)
    n = 0
    for k in 0:63
        n += (x >>> k) & 1
    end
    n
end
count_zeros(x::Int64) = 64 - count_ones(x)
function leading_zeros(x::Int64)
    n = 0
    while n < 64 && (x >>> (63 - n)) & 1 == 0
        n += 1
    end
    n
end
function trailing_zeros(x::Int64)
    n = 0
    while n < 64 && (x >>> n) & 1 == 0
        n += 1
    end
    n
end
leading_ones(x::Int64) = leading_zeros(~x)
trailing_ones(x::Int64) = trailing_zeros(~x)
ispow2(x::Int64) = x > 0 && count_ones(x) == 1

# Digits in a base of 2 or more (of `abs(x)`; `digits` of a negative number are negative,
# least significant first).
function _check_base(base::Int64)
    base >= 2 || Core.throw_argument(string("not supported yet: digits in base ", base, " (a base of 2 or more is)"))
    nothing
end
function ndigits(x::Int64; base::Int64 = 10, pad::Int64 = 1)
    _check_base(base)
    n = 0
    while x != 0
        x = div(x, base)
        n += 1
    end
    max(pad, n)
end
function digits(x::Int64; base::Int64 = 10, pad::Int64 = 1)
    out = zeros(Int64, ndigits(x; base = base, pad = pad))
    for i in 1:length(out)
        x, d = divrem(x, base)
        out[i] = d
    end
    out
end
# `string(n; base, pad)`: `n`'s digits in `base` (0-9 then a-z up to base 36; 0-9, A-Z, a-z
# above), at least `pad` of them, after a minus sign when `n` is negative.
function string(n::Int64; base::Int64 = 10, pad::Int64 = 1)
    if base == 10 && pad <= 1
        return Core.string(n)
    end
    if !(2 <= abs(base) <= 62)
        Core.throw_domain(base, "base must satisfy 2 ≤ abs(base) ≤ 62")
    end
    ds = digits(n; base = base, pad = pad)
    chars = base <= 36 ? "0123456789abcdefghijklmnopqrstuvwxyz" : "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    s = n < 0 ? "-" : ""
    for i in length(ds):-1:1
        s = s * string(chars[abs(ds[i]) + 1])
    end
    s
end

# The smallest power `a^k` (k ≥ 0) at least `x`, and the largest at most `x`, with Julia's
# domain errors; powers computed by `^` as Julia's are.
function nextpow(a::Real, x::Real)
    x <= 0 && Core.throw_domain(x, "`x` must be positive.")
    a <= 1 && Core.throw_domain(a, "`a` must be greater than 1.")
    k = 0
    p = a^k
    while p < x
        k += 1
        q = a^k
        q > p || throw(OverflowError("result is beyond the range of type of the base"))
        p = q
    end
    p
end
function prevpow(a::Real, x::Real)
    x < 1 && Core.throw_domain(x, "`x` must be ≥ 1.")
    a <= 1 && Core.throw_domain(a, "`a` must be greater than 1.")
    k = 0
    p = a^k
    while true
        q = a^(k + 1)
        (q > p && q <= x) || return p
        k += 1
        p = q
    end
end
