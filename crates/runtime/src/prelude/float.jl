# Floats (Float64 and Float32): arithmetic, comparisons, rounding, classification.

# `Base.IEEEFloat`: the hardware floats (Float16 is not provided).
const IEEEFloat = Union{Float32, Float64}

+(x::T, y::T) where {T<:AbstractFloat} = Core.add_float(x, y)
-(x::T, y::T) where {T<:AbstractFloat} = Core.sub_float(x, y)
*(x::T, y::T) where {T<:AbstractFloat} = Core.mul_float(x, y)
/(x::T, y::T) where {T<:AbstractFloat} = Core.div_float(x, y)
-(x::T) where {T<:AbstractFloat} = Core.neg_float(x)
%(x::T, y::T) where {T<:AbstractFloat} = Core.rem_float(x, y)
rem(x::T, y::T) where {T<:AbstractFloat} = Core.rem_float(x, y)
# Flooring and ceiling division of floats (an integer-valued float).
fld(x::T, y::T) where {T<:AbstractFloat} = round((x - mod(x, y)) / y)
cld(x::T, y::T) where {T<:AbstractFloat} = -fld(-x, y)
# The remainder of flooring division: the sign of `y` (a zero remainder takes `y`'s sign too).
function mod(x::T, y::T) where {T<:AbstractFloat}
    r = rem(x, y)
    if r == 0
        copysign(r, y)
    elseif (r > 0) ⊻ (y > 0)
        r + y
    else
        r
    end
end
div(x::T, y::T) where {T<:AbstractFloat} = Core.trunc(Core.div_float(x - Core.rem_float(x, y), y))
÷(x::T, y::T) where {T<:AbstractFloat} = div(x, y)
div(x::Number, y::Number) = (p = promote(x, y); div(p[1], p[2]))
÷(x::Number, y::Number) = (p = promote(x, y); div(p[1], p[2]))
==(x::T, y::T) where {T<:AbstractFloat} = Core.eq_float(x, y)
!=(x::T, y::T) where {T<:AbstractFloat} = Core.ne_float(x, y)
<(x::T, y::T) where {T<:AbstractFloat} = Core.lt_float(x, y)
<=(x::T, y::T) where {T<:AbstractFloat} = Core.le_float(x, y)
^(x::T, n::Int64) where {T<:AbstractFloat} = Core.powi_float(x, n)
function ^(x::T, y::T) where {T<:AbstractFloat}
    if x < zero(T) && !isinteger(y)
        Core.throw_domain(x, "Exponentiation yielding a complex result requires a complex argument.\nReplace x^y with (x+0im)^y, Complex(x)^y, or similar.")
    end
    Core.pow_float(x, y)
end

isnan(x::AbstractFloat) = x != x
isinf(x::AbstractFloat) = !isnan(x) & isnan(x - x)
isfinite(x::AbstractFloat) = !isnan(x - x)
isfinite(x::Integer) = true
isnan(x::Integer) = false
isinf(x::Integer) = false
isinteger(x::AbstractFloat) = isfinite(x) && Core.trunc(x) == x
isinteger(x::Int64) = true
signbit(x::Float64) = Core.copysign(1.0, x) < 0.0
signbit(x::Float32) = Core.copysign(1.0f0, x) < 0.0f0
signbit(x::Int64) = x < 0
abs(x::T) where {T<:AbstractFloat} = Core.abs_float(x)
sign(x::T) where {T<:AbstractFloat} = x > zero(T) ? one(T) : (x < zero(T) ? -one(T) : x)
copysign(x::T, y::T) where {T<:AbstractFloat} = Core.copysign(x, y)
function min(x::T, y::T) where {T<:AbstractFloat}
    if isnan(x) || isnan(y)
        return x + y
    end
    (y < x || (signbit(y) && !signbit(x))) ? y : x
end
function max(x::T, y::T) where {T<:AbstractFloat}
    if isnan(x) || isnan(y)
        return x + y
    end
    (y > x || (signbit(x) && !signbit(y))) ? y : x
end

# Mixed-type arithmetic promotes.
+(x::Number, y::Number) = (p = promote(x, y); p[1] + p[2])
-(x::Number, y::Number) = (p = promote(x, y); p[1] - p[2])
*(x::Number, y::Number) = (p = promote(x, y); p[1] * p[2])
/(x::Number, y::Number) = (p = promote(x, y); p[1] / p[2])
^(x::Number, y::Number) = (p = promote(x, y); p[1] ^ p[2])
%(x::Number, y::Number) = (p = promote(x, y); p[1] % p[2])
rem(x::Number, y::Number) = (p = promote(x, y); rem(p[1], p[2]))
mod(x::Number, y::Number) = (p = promote(x, y); mod(p[1], p[2]))
fld(x::Number, y::Number) = (p = promote(x, y); fld(p[1], p[2]))
cld(x::Number, y::Number) = (p = promote(x, y); cld(p[1], p[2]))
==(x::Number, y::Number) = (p = promote(x, y); p[1] == p[2])
<(x::Number, y::Number) = (p = promote(x, y); p[1] < p[2])
<=(x::Number, y::Number) = (p = promote(x, y); p[1] <= p[2])
min(x::Number, y::Number) = (p = promote(x, y); min(p[1], p[2]))
max(x::Number, y::Number) = (p = promote(x, y); max(p[1], p[2]))
^(x::Bool, n::Int64) = Int64(x)^n
min(x, y, z) = min(min(x, y), z)
max(x, y, z) = max(max(x, y), z)

zero(::Type{Float64}) = 0.0
zero(::Type{Float32}) = 0.0f0
zero(::Type{Int64}) = 0
zero(::Type{Bool}) = false
one(::Type{Float64}) = 1.0
one(::Type{Float32}) = 1.0f0
one(::Type{Int64}) = 1
one(::Type{Bool}) = true
zero(x::Number) = zero(typeof(x))
one(x::Number) = one(typeof(x))
iszero(x::Number) = x == zero(x)
isone(x::Number) = x == one(x)
typemax(::Type{Int64}) = 9223372036854775807
typemin(::Type{Int64}) = -9223372036854775807 - 1
typemax(::Type{Float64}) = Inf
typemin(::Type{Float64}) = -Inf
typemax(::Type{Float32}) = Inf32
# The neighbouring floats (one step of the bit pattern; infinities and NaN stay).
prevfloat(x::Float64) = x == -Inf ? x : isnan(x) ? x : x == 0 ? -5.0e-324 :
    Core.bitcast(Float64, Core.bitcast(Int64, x) + (x > 0 ? -1 : 1))
nextfloat(x::Float64) = -prevfloat(-x)
eps(::Type{Float64}) = 2.220446049250313e-16
eps(::Type{Float32}) = 1.1920929f-7
eps() = eps(Float64)
floatmax(::Type{Float64}) = 1.7976931348623157e308
floatmax(::Type{Float32}) = 3.4028235f38
floatmin(::Type{Float64}) = 2.2250738585072014e-308
floatmin(::Type{Float32}) = 1.1754944f-38
floatmax(x::AbstractFloat) = floatmax(typeof(x))
floatmin(x::AbstractFloat) = floatmin(typeof(x))
floatmax() = floatmax(Float64)
floatmin() = floatmin(Float64)
# `eps(x)`: the distance from `abs(x)` to the next larger float of its type (the spacing of the
# subnormals below `floatmin`); `NaN` for infinities and `NaN`.
function eps(x::Float64)
    isfinite(x) || return NaN
    # The biased exponent (the mask drops the sign).
    E = Core.and_int(Core.bitcast(Int64, x) >> 52, 2047)
    E > 52 ? Core.bitcast(Float64, (E - 52) << 52) : Core.bitcast(Float64, 1 << max(E - 1, 0))
end
function eps(x::Float32)
    isfinite(x) || return Core.fpconvert(Float32, NaN)
    abs(x) < 1.1754944f-38 && return 1.0f-45
    E = Core.and_int(Core.bitcast(Int64, Float64(x)) >> 52, 2047)
    Float32(Core.bitcast(Float64, (E - 23) << 52))
end
abs2(x::Number) = x * x
inv(x::Number) = one(x) / x
muladd(x, y, z) = x * y + z
# One rounding of the exact x * y + z (muladd may round twice, as Julia allows it to).
fma(x::T, y::T, z::T) where {T<:AbstractFloat} = Core.fma(x, y, z)
fma(x::T, y::T, z::T) where {T<:Number} = x * y + z
function fma(x::Number, y::Number, z::Number)
    T = promote_type(promote_type(typeof(x), typeof(y)), typeof(z))
    fma(convert(T, x), convert(T, y), convert(T, z))
end
adjoint(x::Number) = x
transpose(x::Number) = x
conj(x::Real) = x
real(x::Real) = x
imag(x::Real) = zero(x)
# Of arrays of real numbers, as Julia: `conj` and `real` are the array itself, `imag` zeros.
conj(A::AbstractArray{<:Real}) = A
real(A::AbstractArray{<:Real}) = A
imag(A::AbstractArray{<:Real}) = zero(A)

# `(min(x, y), max(x, y))` by `isless` (NaN last).
minmax(x, y) = isless(y, x) ? (y, x) : (x, y)
function clamp(x, lo, hi)
    x > hi && return convert(typeof(x), hi)
    x < lo && return convert(typeof(x), lo)
    x
end
# Left division of numbers: `x \ y == y / x`.
\(x::Number, y::Number) = y / x
