# Math functions (domain checks here, primitives stay total)

function sqrt(x::T) where {T<:AbstractFloat}
    if x < zero(T)
        Core.throw_domain(x, "sqrt was called with a negative real argument but will only return a complex result if called with a complex argument. Try sqrt(Complex(x)).")
    end
    Core.sqrt(x)
end
function sin(x::T) where {T<:AbstractFloat}
    isinf(x) && Core.throw_domain(x, "sin(x) is only defined for finite x.")
    Core.sin(x)
end
function cos(x::T) where {T<:AbstractFloat}
    isinf(x) && Core.throw_domain(x, "cos(x) is only defined for finite x.")
    Core.cos(x)
end
function tan(x::T) where {T<:AbstractFloat}
    isinf(x) && Core.throw_domain(x, "tan(x) is only defined for finite x.")
    Core.tan(x)
end
exp(x::T) where {T<:AbstractFloat} = Core.exp(x)
function log(x::T) where {T<:AbstractFloat}
    if x < zero(T)
        Core.throw_domain(x, "log was called with a negative real argument but will only return a complex result if called with a complex argument. Try log(Complex(x)).")
    end
    Core.log(x)
end
function log2(x::T) where {T<:AbstractFloat}
    if x < zero(T)
        Core.throw_domain(x, "log2 was called with a negative real argument but will only return a complex result if called with a complex argument. Try log2(Complex(x)).")
    end
    Core.log2(x)
end
function log10(x::T) where {T<:AbstractFloat}
    if x < zero(T)
        Core.throw_domain(x, "log10 was called with a negative real argument but will only return a complex result if called with a complex argument. Try log10(Complex(x)).")
    end
    Core.log10(x)
end
function log1p(x::T) where {T<:AbstractFloat}
    if x < -one(T)
        Core.throw_domain(x, "log1p was called with a real argument < -1 but will only return a complex result if called with a complex argument. Try log1p(Complex(x)).")
    end
    Core.log1p(x)
end
expm1(x::T) where {T<:AbstractFloat} = Core.expm1(x)
cbrt(x::T) where {T<:AbstractFloat} = Core.cbrt(x)
# The inverse hyperbolic functions, by Julia's (FreeBSD's) formulas: each range of |x| in the
# form that keeps full precision.
function asinh(x::T) where {T<:AbstractFloat}
    isfinite(x) || return x
    a = abs(x)
    a < T(2)^-28 && return x
    w = if a > T(2)^28
        log(a) + T(0.6931471805599453)
    elseif a > 2
        log(2a + inv(sqrt(x * x + 1) + a))
    else
        t = x * x
        log1p(a + t / (1 + sqrt(1 + t)))
    end
    copysign(w, x)
end
function acosh(x::T) where {T<:AbstractFloat}
    x < 1 && throw(DomainError(x, "acosh(x) is only defined for x ≥ 1."))
    x == 1 && return zero(x)
    if x < 2
        t = x - 1
        return log1p(t + sqrt(2 * t + t * t))
    elseif x < T(2)^28
        return log(2x - inv(x + sqrt(x * x - 1)))
    end
    isfinite(x) ? log(x) + T(0.6931471805599453) : x
end
function atanh(x::T) where {T<:AbstractFloat}
    a = abs(x)
    a > 1 && throw(DomainError(x, "atanh(x) is only defined for |x| ≤ 1."))
    a < T(2)^-28 && return x
    t = if a < 0.5
        b = a + a
        T(0.5) * log1p(b + b * a / (1 - a))
    else
        T(0.5) * log1p((a + a) / (1 - a))
    end
    copysign(t, x)
end
asinh(x::Real) = asinh(float(x))
acosh(x::Real) = acosh(float(x))
atanh(x::Real) = atanh(float(x))
# `∜x`: the fourth root, as two square roots (with their domain errors).
fourthroot(x::Number) = sqrt(sqrt(x))
# Degrees and radians, as Julia computes them: one multiplication by the rounded ratio.
deg2rad(x::Float64) = x * (3.141592653589793 / 180)
rad2deg(x::Float64) = x * (180 / 3.141592653589793)
deg2rad(x::Float32) = x * (3.1415927f0 / 180f0)
rad2deg(x::Float32) = x * (180f0 / 3.1415927f0)
deg2rad(x::Real) = deg2rad(float(x))
rad2deg(x::Real) = rad2deg(float(x))
# `x` negated when `y`'s sign bit is set, keeping `x`'s type.
flipsign(x::Real, y::Real) = signbit(y) ? -x : +x
# A polynomial's value at `x` by Horner's rule (`muladd` steps), coefficients from the
# constant term up.
function evalpoly(x, p::Union{Tuple,AbstractVector})
    n = length(p)
    y = p[n]
    for k in (n - 1):-1:1
        y = muladd(x, y, p[k])
    end
    y
end
exp2(x::T) where {T<:AbstractFloat} = Core.exp2(x)
tanh(x::T) where {T<:AbstractFloat} = Core.tanh(x)
sinh(x::T) where {T<:AbstractFloat} = Core.sinh(x)
cosh(x::T) where {T<:AbstractFloat} = Core.cosh(x)
function asin(x::T) where {T<:AbstractFloat}
    abs(x) > one(T) && Core.throw_domain(x, "asin(x) is not defined for |x| > 1.")
    Core.asin(x)
end
function acos(x::T) where {T<:AbstractFloat}
    abs(x) > one(T) && Core.throw_domain(x, "acos(x) is not defined for |x| > 1.")
    Core.acos(x)
end
atan(x::T) where {T<:AbstractFloat} = Core.atan(x)
atan(y::T, x::T) where {T<:AbstractFloat} = Core.atan2(y, x)
atan(y::Real, x::Real) = (p = promote(float(y), float(x)); atan(p[1], p[2]))
hypot(x::T, y::T) where {T<:AbstractFloat} = Core.hypot(x, y)
hypot(x::Real, y::Real) = (p = promote(float(x), float(y)); hypot(p[1], p[2]))
# `round(x; digits, sigdigits, base)` and likewise `floor`, `ceil`, `trunc`: to a multiple of
# base^-digits, as Julia computes it (x * base^digits rounded, then divided back; x itself where
# that overflows), or to `sigdigits` significant digits. (These keyword methods come first: the
# plain one-argument methods below are then the ones without keywords.)
round(x::T; digits = nothing, sigdigits = nothing, base::Int64 = 10) where {T<:AbstractFloat} = _round_kw(_round_nearest, x, digits, sigdigits, base)
floor(x::T; digits = nothing, sigdigits = nothing, base::Int64 = 10) where {T<:AbstractFloat} = _round_kw(_round_down, x, digits, sigdigits, base)
ceil(x::T; digits = nothing, sigdigits = nothing, base::Int64 = 10) where {T<:AbstractFloat} = _round_kw(_round_up, x, digits, sigdigits, base)
trunc(x::T; digits = nothing, sigdigits = nothing, base::Int64 = 10) where {T<:AbstractFloat} = _round_kw(_round_to_zero, x, digits, sigdigits, base)
_round_nearest(x) = Core.round(x)
_round_down(x) = Core.floor(x)
_round_up(x) = Core.ceil(x)
_round_to_zero(x) = Core.trunc(x)
_round_kw(rnd, x, digits::Nothing, sigdigits::Nothing, base) = rnd(x)
_round_kw(rnd, x, digits::Int64, sigdigits::Nothing, base) = _round_digits(rnd, x, digits, base)
_round_kw(rnd, x, digits::Nothing, sigdigits::Int64, base) = _round_digits(rnd, x, sigdigits - _hidigit(x, base), base)
_round_kw(rnd, x, digits, sigdigits, base) = throw(ArgumentError("`round` cannot use both `digits` and `sigdigits` arguments."))
function _round_digits(rnd, x::AbstractFloat, digits::Int64, base::Int64)
    if digits >= 0
        invstep = convert(typeof(x), base)^digits
        if isfinite(invstep)
            y = rnd(x * invstep) / invstep
        else
            # base^digits overflows: by its square root twice.
            invstepsqrt = convert(typeof(x), base)^convert(typeof(x), digits / 2)
            y = rnd((x * invstepsqrt) * invstepsqrt) / invstepsqrt / invstepsqrt
        end
        return isfinite(y) ? y : x
    end
    step = convert(typeof(x), base)^-digits
    y = rnd(x / step) * step
    if !isfinite(y)
        x > 0 && return rnd === _round_up ? convert(typeof(x), Inf) : zero(x)
        x < 0 && return rnd === _round_down ? -convert(typeof(x), Inf) : -zero(x)
        return x
    end
    y
end
# The position of the leading digit of x in base `base`.
function _hidigit(x::AbstractFloat, base::Int64)
    iszero(x) && return 0
    base == 10 && return 1 + floor(Int64, log10(abs(x)))
    1 + floor(Int64, log(abs(x)) / log(base))
end
floor(x::T) where {T<:AbstractFloat} = Core.floor(x)
ceil(x::T) where {T<:AbstractFloat} = Core.ceil(x)
round(x::T) where {T<:AbstractFloat} = Core.round(x)
trunc(x::T) where {T<:AbstractFloat} = Core.trunc(x)
floor(x::Int64) = x
ceil(x::Int64) = x
round(x::Int64) = x
trunc(x::Int64) = x
floor(::Type{Int64}, x::AbstractFloat) = Int64(floor(x))
ceil(::Type{Int64}, x::AbstractFloat) = Int64(ceil(x))
round(::Type{Int64}, x::AbstractFloat) = Int64(round(x))
trunc(::Type{Int64}, x::AbstractFloat) = Int64(trunc(x))
floor(::Type{Int64}, x::Union{Int64,Bool}) = Int64(x)
ceil(::Type{Int64}, x::Union{Int64,Bool}) = Int64(x)
round(::Type{Int64}, x::Union{Int64,Bool}) = Int64(x)
trunc(::Type{Int64}, x::Union{Int64,Bool}) = Int64(x)
sincos(x) = (sin(x), cos(x))
# sin(πx) and cos(πx), exact at the integers and half-integers: the argument is reduced to
# within a quarter of the nearest half-integer before π multiplies it.
function _pi_quadrant(x::Float64, f::String)
    isfinite(x) || (isnan(x) && return (x, 0)) || throw(DomainError(x, string(f, "(x) is only defined for finite x.")))
    r = rem(abs(x), 2.0)
    n = round(2 * r)
    (r - n / 2, Int64(n))
end
# sin(πy) and cos(πy) for |y| ≤ 1/4, with πy carried to twice the precision of a float.
function _sincospi_kernel(y::Float64)
    hi = 3.141592653589793 * y
    lo = fma(3.141592653589793, y, -hi) + 1.2246467991473532e-16 * y
    s, c = sin(hi), cos(hi)
    (s + lo * c, c - lo * s)
end
function sinpi(x::Float64)
    y, n = _pi_quadrant(x, "sinpi")
    isnan(y) && return y
    s, c = _sincospi_kernel(y)
    v = n == 0 || n == 4 ? s : n == 1 ? c : n == 2 ? -s : -c
    v = iszero(v) ? zero(v) : v
    x < 0 || (x == 0 && signbit(x)) ? -v : v
end
function cospi(x::Float64)
    y, n = _pi_quadrant(x, "cospi")
    isnan(y) && return y
    s, c = _sincospi_kernel(y)
    v = n == 0 || n == 4 ? c : n == 1 ? -s : n == 2 ? -c : s
    iszero(v) ? zero(v) : v
end
sinpi(x::Real) = sinpi(float(x))
cospi(x::Real) = cospi(float(x))
sincospi(x::Real) = (sinpi(x), cospi(x))

# Integer (and Bool) arguments go through Float64.
sqrt(x::Real) = sqrt(float(x))
sin(x::Real) = sin(float(x))
cos(x::Real) = cos(float(x))
tan(x::Real) = tan(float(x))
exp(x::Real) = exp(float(x))
log(x::Real) = log(float(x))
log2(x::Real) = log2(float(x))
log10(x::Real) = log10(float(x))
log1p(x::Real) = log1p(float(x))
expm1(x::Real) = expm1(float(x))
cbrt(x::Real) = cbrt(float(x))
exp2(x::Real) = exp2(float(x))
tanh(x::Real) = tanh(float(x))
sinh(x::Real) = sinh(float(x))
cosh(x::Real) = cosh(float(x))
asin(x::Real) = asin(float(x))
acos(x::Real) = acos(float(x))
atan(x::Real) = atan(float(x))
