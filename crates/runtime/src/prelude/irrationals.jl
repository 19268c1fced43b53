# Exact irrational constants (`π`, `ℯ`, and `γ`, `φ`, `catalan` of `MathConstants`): each is a
# value of its own type `Irrational{sym}`, converted to the float type it meets (`2π` is a
# Float64, `π * 1.0f0` a Float32), compared exactly (`π == 3.141592653589793` is false) and
# printed by name.

abstract type AbstractIrrational <: Real end
struct Irrational{sym} <: AbstractIrrational end

# The nearest Float64 and Float32 to each constant, and the neighbouring float on the other
# side of the exact value (so that comparisons with floats are exact, as in Julia).
Float64(::Irrational{:π}) = 3.141592653589793
Float32(::Irrational{:π}) = 3.1415927f0
_float64_below(::Irrational{:π}) = 3.141592653589793
_float64_above(::Irrational{:π}) = 3.1415926535897936
_float32_below(::Irrational{:π}) = 3.1415925f0
_float32_above(::Irrational{:π}) = 3.1415927f0

Float64(::Irrational{:ℯ}) = 2.718281828459045
Float32(::Irrational{:ℯ}) = 2.7182817f0
_float64_below(::Irrational{:ℯ}) = 2.718281828459045
_float64_above(::Irrational{:ℯ}) = 2.7182818284590455
_float32_below(::Irrational{:ℯ}) = 2.7182817f0
_float32_above(::Irrational{:ℯ}) = 2.718282f0

Float64(::Irrational{:γ}) = 0.5772156649015329
Float32(::Irrational{:γ}) = 0.5772157f0
_float64_below(::Irrational{:γ}) = 0.5772156649015328
_float64_above(::Irrational{:γ}) = 0.5772156649015329
_float32_below(::Irrational{:γ}) = 0.5772156f0
_float32_above(::Irrational{:γ}) = 0.5772157f0

Float64(::Irrational{:φ}) = 1.618033988749895
Float32(::Irrational{:φ}) = 1.618034f0
_float64_below(::Irrational{:φ}) = 1.6180339887498947
_float64_above(::Irrational{:φ}) = 1.618033988749895
_float32_below(::Irrational{:φ}) = 1.6180339f0
_float32_above(::Irrational{:φ}) = 1.618034f0

Float64(::Irrational{:catalan}) = 0.915965594177219
Float32(::Irrational{:catalan}) = 0.9159656f0
_float64_below(::Irrational{:catalan}) = 0.915965594177219
_float64_above(::Irrational{:catalan}) = 0.9159655941772191
_float32_below(::Irrational{:catalan}) = 0.91596556f0
_float32_above(::Irrational{:catalan}) = 0.9159656f0

float(x::AbstractIrrational) = Float64(x)
float(::Type{T}) where {T<:AbstractIrrational} = Float64
convert(::Type{Float64}, x::AbstractIrrational) = Float64(x)
convert(::Type{Float32}, x::AbstractIrrational) = Float32(x)

zero(::AbstractIrrational) = false
zero(::Type{T}) where {T<:AbstractIrrational} = false
one(::AbstractIrrational) = true
one(::Type{T}) where {T<:AbstractIrrational} = true
isfinite(::AbstractIrrational) = true
isinf(::AbstractIrrational) = false
isnan(::AbstractIrrational) = false
isinteger(::AbstractIrrational) = false
iszero(::AbstractIrrational) = false
isone(::AbstractIrrational) = false
sign(x::AbstractIrrational) = sign(Float64(x))
abs(x::AbstractIrrational) = x

# Arithmetic between two constants is in Float64; with other numbers it goes through
# `promote` (`Core.promote_type` knows that a constant meets Float32 as Float32).
-(x::AbstractIrrational) = -Float64(x)
+(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) + Float64(y)
-(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) - Float64(y)
*(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) * Float64(y)
/(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) / Float64(y)
^(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) ^ Float64(y)
*(x::Bool, y::AbstractIrrational) = x ? y : zero(y)
*(x::AbstractIrrational, y::Bool) = y * x
+(x::Bool, y::AbstractIrrational) = x ? 1.0 + y : y
+(x::AbstractIrrational, y::Bool) = y + x
-(x::AbstractIrrational, y::Bool) = y ? x - 1.0 : x

# A float never equals an irrational number; order against floats uses the float just
# above or below the exact value.
==(::Irrational{s}, ::Irrational{s}) where {s} = true
==(::AbstractIrrational, ::AbstractIrrational) = false
==(::AbstractIrrational, ::Real) = false
==(::Real, ::AbstractIrrational) = false
<(::Irrational{s}, ::Irrational{s}) where {s} = false
<(x::AbstractIrrational, y::AbstractIrrational) = Float64(x) < Float64(y)
<=(::Irrational{s}, ::Irrational{s}) where {s} = true
<=(x::AbstractIrrational, y::AbstractIrrational) = x == y || x < y
<(x::AbstractIrrational, y::Float64) = _float64_above(x) <= y
<(x::Float64, y::AbstractIrrational) = x <= _float64_below(y)
<(x::AbstractIrrational, y::Float32) = _float32_above(x) <= y
<(x::Float32, y::AbstractIrrational) = x <= _float32_below(y)
<=(x::AbstractIrrational, y::Float64) = x < y
<=(x::Float64, y::AbstractIrrational) = x < y
<=(x::AbstractIrrational, y::Float32) = x < y
<=(x::Float32, y::AbstractIrrational) = x < y

round(x::AbstractIrrational; digits = nothing, sigdigits = nothing, base::Int64 = 10) =
    round(Float64(x); digits = digits, sigdigits = sigdigits, base = base)

# Exact values of functions at the constants (as Julia's MathConstants defines them).
sin(::Irrational{:π}) = 0.0
cos(::Irrational{:π}) = -1.0
tan(::Irrational{:π}) = 0.0
sincos(::Irrational{:π}) = (0.0, -1.0)
log(::Irrational{:ℯ}) = 1
log(::Irrational{:ℯ}, x::Number) = log(x)

# `x^k` for a literal integer `k` in -2..=3 calls these (Julia's `literal_pow`).
_literal_pow0(x) = one(x)
_literal_pow1(x) = x
_literal_pow2(x) = x * x
_literal_pow3(x) = x * x * x
_literal_pow_minus1(x) = inv(x)
_literal_pow_minus2(x) = (y = inv(x); y * y)

# A constant to an integer power multiplies its Float64 value by squaring (Julia's
# `power_by_squaring`, which refuses negative powers; a negative literal power is a power of
# `inv(x)`, as the generic methods above give); `ℯ^x` is `exp(x)`.
_literal_pow0(::AbstractIrrational) = 1.0
_literal_pow1(x::AbstractIrrational) = Float64(x)
^(x::AbstractIrrational, p::Int64) = _power_by_squaring(Float64(x), p)
function _power_by_squaring(x::Number, p::Int64)
    p == 0 && return one(x)
    p == 1 && return x
    if p < 0
        isone(x) && return x
        isone(-x) && return iseven(p) ? one(x) : x
        throw(DomainError(p, "Cannot raise an integer x to a negative power $(p).\nConvert input to float."))
    end
    while iseven(p)
        x *= x
        p >>= 1
    end
    y = x
    p >>= 1
    while p > 0
        x *= x
        if isodd(p)
            y *= x
        end
        p >>= 1
    end
    y
end
^(::Irrational{:ℯ}, x::Number) = exp(x)
^(::Irrational{:ℯ}, x::Int64) = exp(x)
^(::Irrational{:ℯ}, x::AbstractIrrational) = exp(x)
_literal_pow0(::Irrational{:ℯ}) = exp(0)
_literal_pow1(::Irrational{:ℯ}) = exp(1)
_literal_pow2(::Irrational{:ℯ}) = exp(2)
_literal_pow3(::Irrational{:ℯ}) = exp(3)
_literal_pow_minus1(::Irrational{:ℯ}) = exp(-1)
_literal_pow_minus2(::Irrational{:ℯ}) = exp(-2)
