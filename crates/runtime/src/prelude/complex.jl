# Complex numbers: `Complex{T}`, `im`, their arithmetic, elementary functions and promotion,
# with Julia's algorithms (Smith's and Baudin–Smith's division, Kahan's square root and
# logarithm, repeated squaring for integer powers), so values are Julia's to the last bit.
# A complex number is an ordinary immutable struct of two reals: AD differentiates through it,
# and its tangent has one real tangent per part (Mooncake's convention for `Complex`).

struct Complex{T<:Real} <: Number
    re::T
    im::T
end
Complex(x::Real, y::Real) = Complex(promote(x, y)...)
Complex(x::Real) = Complex(x, zero(x))
Complex(z::Complex) = z
Complex{T}(x::Real) where {T<:Real} = Complex{T}(x, zero(x))
Complex{T}(z::Complex) where {T<:Real} = Complex{T}(z.re, z.im)

const im = Complex(false, true)
const ComplexF64 = Complex{Float64}
const ComplexF32 = Complex{Float32}

convert(::Type{Complex{T}}, x::Real) where {T<:Real} = Complex{T}(x)
convert(::Type{Complex{T}}, z::Complex) where {T<:Real} = Complex{T}(z)
convert(::Type{Complex}, z::Complex) = z
convert(::Type{Complex}, x::Real) = Complex(x)
function _real_of(::Type{T}, z::Complex) where {T}
    isreal(z) || throw(InexactError(Symbol(T), T, z))
    convert(T, real(z))
end
Float64(z::Complex) = _real_of(Float64, z)
Float32(z::Complex) = _real_of(Float32, z)
Int64(z::Complex) = _real_of(Int64, z)
convert(::Type{Float64}, z::Complex) = _real_of(Float64, z)
convert(::Type{Int64}, z::Complex) = _real_of(Int64, z)

real(z::Complex) = z.re
imag(z::Complex) = z.im
reim(z) = (real(z), imag(z))
real(::Type{T}) where {T<:Real} = T
real(::Type{Complex{T}}) where {T<:Real} = T
complex(z::Complex) = z
complex(x::Real) = Complex(x)
complex(x::Real, y::Real) = Complex(x, y)
complex(::Type{T}) where {T<:Real} = Complex{T}
complex(::Type{Complex{T}}) where {T<:Real} = Complex{T}
complex(A::AbstractArray{<:Complex}) = A
complex(A::AbstractArray{<:Real}) = map(complex, A)
zero(::Type{Complex{T}}) where {T<:Real} = Complex(zero(T), zero(T))
one(::Type{Complex{T}}) where {T<:Real} = Complex(one(T), zero(T))
zero(z::Complex) = Complex(zero(z.re), zero(z.im))
one(z::Complex) = Complex(one(z.re), zero(z.im))
float(z::Complex{T}) where {T<:AbstractFloat} = z
float(z::Complex) = Complex(float(z.re), float(z.im))
float(::Type{Complex{T}}) where {T<:Real} = Complex{float(T)}

isreal(x::Real) = true
isreal(z::Complex) = iszero(imag(z))
isinteger(z::Complex) = isreal(z) & isinteger(real(z))
isfinite(z::Complex) = isfinite(real(z)) & isfinite(imag(z))
isnan(z::Complex) = isnan(real(z)) | isnan(imag(z))
isinf(z::Complex) = isinf(real(z)) | isinf(imag(z))
iszero(z::Complex) = iszero(real(z)) & iszero(imag(z))
isone(z::Complex) = isone(real(z)) & iszero(imag(z))
flipsign(z::Complex, y::Real) = ifelse(signbit(y), -z, z)

==(z::Complex, w::Complex) = (real(z) == real(w)) & (imag(z) == imag(w))
==(z::Complex, x::Real) = isreal(z) && real(z) == x
==(x::Real, z::Complex) = isreal(z) && real(z) == x
isequal(z::Complex, w::Complex) = isequal(real(z), real(w)) & isequal(imag(z), imag(w))
isequal(z::Complex, w::Real) = isequal(real(z), w) & isequal(imag(z), zero(w))
isequal(z::Real, w::Complex) = isequal(z, real(w)) & isequal(zero(z), imag(w))

conj(z::Complex) = Complex(real(z), -imag(z))
adjoint(z::Complex) = conj(z)
transpose(z::Complex) = z
abs(z::Complex) = hypot(real(z), imag(z))
abs2(z::Complex) = real(z) * real(z) + imag(z) * imag(z)
angle(z::Complex) = atan(imag(z), real(z))
angle(x::Real) = atan(zero(x), x)
sign(z::Complex) = iszero(z) ? z / one(abs(z)) : z / abs(z)

+(z::Complex) = Complex(+real(z), +imag(z))
-(z::Complex) = Complex(-real(z), -imag(z))
+(z::Complex, w::Complex) = Complex(real(z) + real(w), imag(z) + imag(w))
-(z::Complex, w::Complex) = Complex(real(z) - real(w), imag(z) - imag(w))
*(z::Complex, w::Complex) = Complex(real(z) * real(w) - imag(z) * imag(w), real(z) * imag(w) + imag(z) * real(w))
muladd(z::Complex, w::Complex, x::Complex) =
    Complex(muladd(real(z), real(w), -muladd(imag(z), imag(w), -real(x))),
            muladd(real(z), imag(w), muladd(imag(z), real(w), imag(x))))

# A real and a complex number combine part by part (no promotion of the real to complex, so
# `2.0 * (Inf + 0im)` has no NaN); `Bool`s keep their own meaning (`true * z` is `z`).
+(x::Real, z::Complex) = Complex(x + real(z), imag(z))
+(z::Complex, x::Real) = Complex(x + real(z), imag(z))
function -(x::Real, z::Complex)
    re = x - real(z)
    Complex(re, -oftype(re, imag(z)))
end
-(z::Complex, x::Real) = Complex(real(z) - x, imag(z))
*(x::Real, z::Complex) = Complex(x * real(z), x * imag(z))
*(z::Complex, x::Real) = Complex(x * real(z), x * imag(z))
+(x::Real, z::Complex{Bool}) = Complex(x + real(z), imag(z))
+(z::Complex{Bool}, x::Real) = Complex(real(z) + x, imag(z))
function -(x::Real, z::Complex{Bool})
    re = x - real(z)
    Complex(re, -oftype(re, imag(z)))
end
-(z::Complex{Bool}, x::Real) = Complex(real(z) - x, imag(z))
*(x::Real, z::Complex{Bool}) = Complex(x * real(z), x * imag(z))
*(z::Complex{Bool}, x::Real) = Complex(real(z) * x, imag(z) * x)
+(x::Bool, z::Complex) = Complex(x + real(z), imag(z))
+(z::Complex, x::Bool) = Complex(real(z) + x, imag(z))
-(x::Bool, z::Complex) = Complex(x - real(z), -imag(z))
-(z::Complex, x::Bool) = Complex(real(z) - x, imag(z))
*(x::Bool, z::Complex) = Complex(x * real(z), x * imag(z))
*(z::Complex, x::Bool) = Complex(real(z) * x, imag(z) * x)
+(x::Bool, z::Complex{Bool}) = Complex(x + real(z), imag(z))
+(z::Complex{Bool}, x::Bool) = Complex(real(z) + x, imag(z))
-(x::Bool, z::Complex{Bool}) = Complex(x - real(z), -imag(z))
-(z::Complex{Bool}, x::Bool) = Complex(real(z) - x, imag(z))
*(x::Bool, z::Complex{Bool}) = Complex(x * real(z), x * imag(z))
*(z::Complex{Bool}, x::Bool) = Complex(real(z) * x, imag(z) * x)

/(z::Complex, x::Real) = Complex(real(z) / x, imag(z) / x)
/(a::Real, z::Complex) = a * inv(convert(complex(promote_type(typeof(a), typeof(real(z)))), z))
/(z::Complex, w::Complex) = (p = promote(z, w); p[1] / p[2])

# Smith's division, scaled by the larger part of the divisor.
function /(a::Complex{T}, b::Complex{T}) where {T<:Real}
    are, aim, bre, bim = real(a), imag(a), real(b), imag(b)
    if isinf(bre) | isinf(bim)
        isfinite(a) && return complex(zero(T) * sign(are) * sign(bre), -zero(T) * sign(aim) * sign(bim))
        return T(NaN) + T(NaN) * im
    end
    if abs(bre) <= abs(bim)
        r = bre / bim
        den = bim + r * bre
        return Complex((are * r + aim) / den, (aim * r - are) / den)
    end
    r = bim / bre
    den = bre + r * bim
    Complex((are + aim * r) / den, (aim - are * r) / den)
end

# Baudin and Smith's robust division (arXiv:1210.4539) for double precision: operands near
# overflow or underflow are scaled by powers of two first.
function /(z::ComplexF64, w::ComplexF64)
    a, b = reim(z)
    c, d = reim(w)
    absa, absb = abs(a), abs(b)
    ab = absa >= absb ? absa : absb
    absc, absd = abs(c), abs(d)
    cd = absc >= absd ? absc : absd
    if isinf(c) | isinf(d)
        isfinite(z) && return complex(0.0 * sign(a) * sign(c), -0.0 * sign(b) * sign(d))
        return Complex(NaN, NaN)
    end
    halfov = 0.5 * 1.7976931348623157e308
    twounϵ = 2.2250738585072014e-308 * 2.0 / 2.220446049250313e-16
    if ab >= halfov || ab <= twounϵ || cd >= halfov || cd <= twounϵ
        bs = 2.0 / (2.220446049250313e-16 * 2.220446049250313e-16)
        s = 1.0
        if ab >= halfov
            a *= 0.5
            b *= 0.5
            s *= 2.0
        elseif ab <= twounϵ
            a *= bs
            b *= bs
            s /= bs
        end
        if cd >= halfov
            c *= 0.5
            d *= 0.5
            s *= 0.5
        elseif cd <= twounϵ
            c *= bs
            d *= bs
            s *= bs
        end
        p, q = _cdiv(a, b, c, d)
        return ComplexF64(p * s, q * s)
    end
    p, q = _cdiv(a, b, c, d)
    ComplexF64(p, q)
end
function _cdiv(a::Float64, b::Float64, c::Float64, d::Float64)
    if abs(d) <= abs(c)
        return _cdiv_ordered(a, b, c, d)
    end
    p, q = _cdiv_ordered(b, a, d, c)
    (p, -q)
end
function _cdiv_ordered(a::Float64, b::Float64, c::Float64, d::Float64)
    r = d / c
    t = 1.0 / (c + d * r)
    (_cdiv_part(a, b, c, d, r, t), _cdiv_part(b, -a, c, d, r, t))
end
function _cdiv_part(a::Float64, b::Float64, c::Float64, d::Float64, r::Float64, t::Float64)
    r == 0 && return (a + d * (b / c)) * t
    br = b * r
    br != 0 ? (a + br) * t : a * t + (b * t) * r
end

function inv(z::Complex)
    c, d = reim(z)
    (isinf(c) | isinf(d)) && return complex(copysign(zero(c), c), flipsign(-zero(d), d))
    complex(c, -d) / (c * c + d * d)
end
inv(z::Complex{<:Integer}) = inv(float(z))
function inv(w::ComplexF64)
    c, d = reim(w)
    absc, absd = abs(c), abs(d)
    big, small = absc > absd ? (absc, absd) : (absd, absc)
    if 1.0547686614863e-154 <= big <= 9.480751908109176e153
        return conj(w) / muladd(big, big, small * small)
    end
    (isinf(c) | isinf(d)) && return complex(copysign(0.0, c), flipsign(-0.0, d))
    s = 1.0
    if big >= 1.7976931348623157e308 / 2
        c *= 0.5
        d *= 0.5
        s = 0.5
    elseif big <= 2 * 2.2250738585072014e-308 / 2.220446049250313e-16
        bs = 2 / (2.220446049250313e-16 * 2.220446049250313e-16)
        c *= bs
        d *= bs
        s = bs
    end
    if absd <= absc
        r = d / c
        den = muladd(d, r, c)
        p, q = 1.0 / den, -r / den
    else
        r = c / d
        den = muladd(c, r, d)
        p, q = r / den, -1.0 / den
    end
    ComplexF64(p * s, q * s)
end

# x * 2^k, and the binary exponent of a finite nonzero float (Julia's `ldexp`, `exponent`).
function _ldexp(x::Float64, k::Int64)
    while k > 1000
        x *= 2.0^1000
        k -= 1000
    end
    while k < -1000
        x *= 2.0^-1000
        k += 1000
    end
    x * Core.bitcast(Float64, (k + 1023) << 52)
end
function _exponent(x::Float64)
    e = Core.and_int(Core.bitcast(Int64, x) >> 52, 2047)
    e != 0 && return e - 1023
    _exponent(x * 4.503599627370496e15) - 52
end

# x² + y² and a power of two 2^(2k) it was scaled by, without overflow or underflow.
function _scaled_sum_squares(x::Float64, y::Float64)
    k = 0
    ρ = x * x + y * y
    if !isfinite(ρ) && (isinf(x) || isinf(y))
        ρ = Inf
    elseif isinf(ρ) || (ρ == 0 && (x != 0 || y != 0)) || ρ < 5.0e-324 / (2 * 2.220446049250313e-16^2)
        m = max(abs(x), abs(y))
        k = m == 0 ? 0 : _exponent(m)
        xk, yk = _ldexp(x, -k), _ldexp(y, -k)
        ρ = xk * xk + yk * yk
    end
    (ρ, k)
end

function sqrt(z::Complex)
    z = float(z)
    x, y = Float64(real(z)), Float64(imag(z))
    x == 0 && y == 0 && return Complex(zero(real(z)), imag(z))
    ρ, k = _scaled_sum_squares(x, y)
    if isfinite(x)
        ρ = _ldexp(abs(x), -k) + sqrt(ρ)
    end
    if isodd(k)
        k = div(k - 1, 2)
    else
        k = div(k, 2) - 1
        ρ += ρ
    end
    ρ = _ldexp(sqrt(ρ), k)
    ξ = ρ
    η = y
    if ρ != 0
        if isfinite(η)
            η = (η / ρ) / 2
        end
        if x < 0
            ξ = abs(η)
            η = copysign(ρ, y)
        end
    end
    Complex(oftype(real(z), ξ), oftype(real(z), η))
end

function log(z::Complex)
    z = float(z)
    x, y = Float64(real(z)), Float64(imag(z))
    ρ, k = _scaled_sum_squares(x, y)
    ax, ay = abs(x), abs(y)
    θ, β = ax < ay ? (ax, ay) : (ay, ax)
    if k == 0 && (0.5 < β * β) && (β <= 1.25 || ρ < 3.0)
        ρρ = log1p((β - 1) * (β + 1) + θ * θ) / 2
    else
        ρρ = log(ρ) / 2 + k * 0.6931471805599453
    end
    Complex(oftype(real(z), ρρ), angle(z))
end
log10(z::Complex) = (a = log(z); a / log(oftype(real(a), 10)))
log2(z::Complex) = (a = log(z); a / log(oftype(real(a), 2)))

function exp(z::Complex)
    zr, zi = reim(z)
    if isnan(zr)
        return Complex(zr, zi == 0 ? zi : zr)
    elseif !isfinite(zi)
        zr == Inf && return Complex(-zr, oftype(zr, NaN))
        zr == -Inf && return Complex(-zero(zr), copysign(zero(zi), zi))
        return Complex(oftype(zr, NaN), oftype(zi, NaN))
    end
    er = exp(zr)
    iszero(zi) && return Complex(er, zi)
    s, c = sincos(zi)
    Complex(er * c, er * s)
end
function cis(θ::Real)
    s, c = sincos(θ)
    Complex(c, s)
end
function cis(z::Complex)
    v = exp(-imag(z))
    s, c = sincos(real(z))
    Complex(v * c, v * s)
end

# z^p for complex or real z and p (Julia's `_cpow`): integer powers by repeated squaring, real
# bases and exponents by their real powers, the rest through the polar form.
function _cpow(z, p)
    z = float(z)
    p = float(p)
    Tf = typeof(real(z))
    if isreal(p)
        pr = real(p)
        if isinteger(pr) && abs(pr) < 2147483647
            if iszero(pr)
                return Complex(one(Tf), flipsign(copysign(zero(Tf), pr), imag(z)))
            end
            ip = Int64(pr)
            if isreal(z)
                zr = real(z)
                if ip < 0
                    iszero(z) && return Complex(Tf(NaN), Tf(NaN))
                    re = _power_by_squaring(inv(zr), -ip)
                    imz = -imag(z)
                else
                    re = _power_by_squaring(zr, ip)
                    imz = imag(z)
                end
                return Complex(re, ifelse(iseven(ip) & signbit(zr), -imz, imz))
            end
            zc = complex(z)
            return ip < 0 ? _power_by_squaring(inv(zc), -ip) : _power_by_squaring(zc, ip)
        elseif isreal(z)
            if iszero(real(z))
                return pr > 0 ? complex(z) : Complex(Tf(NaN), Tf(NaN))
            elseif real(z) > 0
                return Complex(real(z)^pr, z isa Real ? ifelse(real(z) < 1, -imag(p), imag(p)) : flipsign(imag(z), pr))
            end
            zr = real(z)
            rp = (-zr)^pr
            if isfinite(pr)
                return rp * complex(cos(π * pr), flipsign(sin(π * pr), imag(z)))
            end
            iszero(rp) && return zero(Complex{Tf})
            return Complex(Tf(NaN), Tf(NaN))
        else
            rp = abs(z)^pr
            ϕ = pr * angle(z)
        end
    elseif isreal(z)
        iszero(z) && return real(p) > 0 ? complex(z) : Complex(Tf(NaN), Tf(NaN))
        zr = real(z)
        pr, pi_ = reim(p)
        if zr > 0
            rp = zr^pr
            ϕ = pi_ * log(zr)
        else
            r = -zr
            θ = copysign(Tf(π), imag(z))
            rp = r^pr * exp(-pi_ * θ)
            ϕ = pr * θ + pi_ * log(r)
        end
    else
        pr, pi_ = reim(p)
        r = abs(z)
        θ = angle(z)
        rp = r^pr * exp(-pi_ * θ)
        ϕ = pr * θ + pi_ * log(r)
    end
    isfinite(ϕ) && return rp * cis(ϕ)
    iszero(rp) && return zero(Complex{Tf})
    Complex(Tf(NaN), Tf(NaN))
end
^(z::Complex, p::Complex) = (q = promote(z, p); _cpow(q[1], q[2]))
^(z::Complex, n::Bool) = n ? z : one(z)
^(z::Complex{<:AbstractFloat}, n::Int64) = n >= 0 ? _power_by_squaring(z, n) : _power_by_squaring(inv(z), -n)
^(z::Complex{<:Integer}, n::Int64) = _power_by_squaring(z, n)
function ^(z::Complex, p::AbstractFloat)
    P = promote_type(real(typeof(z)), typeof(p))
    _cpow(Complex{P}(z), P(p))
end
function ^(z::Real, p::Complex)
    P = promote_type(float(typeof(z)), real(typeof(p)))
    _cpow(P(z), Complex{P}(p))
end

function sin(z::Complex)
    zr, zi = reim(float(z))
    F = typeof(zr)
    zr == 0 && return Complex(zr, sinh(zi))
    if !isfinite(zr)
        return zi == 0 || isinf(zi) ? Complex(F(NaN), zi) : Complex(F(NaN), F(NaN))
    end
    s, c = sincos(zr)
    Complex(s * cosh(zi), c * sinh(zi))
end
function cos(z::Complex)
    zr, zi = reim(float(z))
    F = typeof(zr)
    zr == 0 && return Complex(cosh(zi), isnan(zi) ? zr : -flipsign(zr, zi))
    if !isfinite(zr)
        zi == 0 && return Complex(F(NaN), isnan(zr) ? zero(F) : -flipsign(zi, zr))
        isinf(zi) && return Complex(F(Inf), F(NaN))
        return Complex(F(NaN), F(NaN))
    end
    s, c = sincos(zr)
    Complex(c * cosh(zi), -s * sinh(zi))
end
function tanh(z::Complex)
    ξ, η = reim(float(z))
    Tf = typeof(ξ)
    isnan(ξ) && η == 0 && return Complex(ξ, η)
    if 4 * abs(ξ) > asinh(prevfloat(typemax(Tf)))
        return Complex(copysign(one(Tf), ξ), copysign(zero(Tf), η * (isfinite(η) ? sin(2 * abs(η)) : one(η))))
    end
    t = tan(η)
    β = 1 + t * t
    s = sinh(ξ)
    ρ = sqrt(1 + s * s)
    isinf(t) && return Complex(ρ / s, 1 / t)
    Complex(β * ρ * s, t) / (1 + β * s * s)
end
function tan(z::Complex)
    zr, zi = reim(z)
    w = tanh(Complex(-zi, zr))
    Complex(imag(w), -real(w))
end
function sinh(z::Complex)
    zr, zi = reim(z)
    w = sin(Complex(zi, zr))
    Complex(imag(w), real(w))
end
cosh(z::Complex) = cos(Complex(imag(z), -real(z)))

# The inverse functions, by Kahan's formulas (as Julia's): the branch cuts follow the signs of
# zero parts, and the special values are Julia's.
function asin(z::Complex)
    zr, zi = reim(float(z))
    isinf(zr) && isinf(zi) && return Complex(copysign(oftype(zr, π) / 4, zr), zi)
    isnan(zi) && isinf(zr) && return Complex(zi, oftype(zr, Inf))
    w = float(z)
    ξ = zr == 0 ? zr : !isfinite(zr) ? oftype(zr, π) / 2 * sign(zr) : atan(zr, real(sqrt(1 - w) * sqrt(1 + w)))
    η = asinh(copysign(imag(sqrt(conj(1 - w)) * sqrt(1 + w)), zi))
    Complex(ξ, η)
end
function acos(z::Complex)
    w = float(z)
    zr, zi = reim(w)
    if isnan(zr)
        return isinf(zi) ? Complex(zr, -zi) : Complex(zr, zr)
    elseif isnan(zi)
        isinf(zr) && return Complex(zi, abs(zr))
        zr == 0 && return Complex(oftype(zr, π) / 2, zi)
        return Complex(zi, zi)
    elseif zr == 0 && zi == 0
        return Complex(oftype(zr, π) / 2, -zi)
    elseif zr == Inf && zi === zero(zi)
        return Complex(zi, -zr)
    elseif zr == -Inf && zi === -zero(zi)
        return Complex(oftype(zi, π), -zr)
    end
    ξ = 2 * atan(real(sqrt(1 - w)), real(sqrt(1 + w)))
    η = asinh(imag(sqrt(conj(1 + w)) * sqrt(1 - w)))
    if isinf(zr) && isinf(zi)
        ξ -= oftype(η, π) / 4 * sign(zr)
    end
    Complex(ξ, η)
end
function atan(z::Complex)
    w = atanh(Complex(-imag(z), real(z)))
    Complex(imag(w), -real(w))
end
function asinh(z::Complex)
    w = asin(Complex(-imag(z), real(z)))
    Complex(imag(w), -real(w))
end
function acosh(z::Complex)
    w = float(z)
    zr, zi = reim(w)
    if isnan(zr) || isnan(zi)
        (isinf(zr) || isinf(zi)) && return Complex(oftype(zr, Inf), oftype(zi, NaN))
        return Complex(oftype(zr, NaN), oftype(zi, NaN))
    elseif zr == -Inf && zi === -zero(zi)
        return Complex(oftype(zr, Inf), oftype(zi, -π))
    end
    ξ = asinh(real(sqrt(conj(w - 1)) * sqrt(w + 1)))
    η = 2 * atan(imag(sqrt(w - 1)), real(sqrt(w + 1)))
    if isinf(zr) && isinf(zi)
        η -= oftype(η, π) / 4 * sign(zi) * sign(zr)
    end
    Complex(ξ, η)
end
function atanh(z::Complex)
    w = float(z)
    x, y = reim(w)
    Tf = typeof(x)
    θ = sqrt(prevfloat(typemax(Tf))) / 4
    ρ = 1 / θ
    ax, ay = abs(x), abs(y)
    # Far from the origin: the leading terms, without overflow.
    if ax > θ || ay > θ
        if isnan(y)
            return isinf(x) ? Complex(copysign(zero(x), x), y) : Complex(real(1 / w), y)
        end
        isinf(y) && return Complex(copysign(zero(x), x), copysign(oftype(y, π) / 2, y))
        return Complex(real(1 / w), copysign(oftype(y, π) / 2, y))
    end
    β = copysign(one(Tf), x)
    w *= β
    x, y = reim(w)
    if x == 1
        if y == 0
            ξ = oftype(x, Inf)
            η = y
        else
            ym = ay + ρ
            ξ = log(sqrt(sqrt(4 + y * y)) / sqrt(ym))
            η = copysign(oftype(y, π) / 2 + atan(ym / 2), y) / 2
        end
    else
        ysq = (ay + ρ)^2
        ξ = x == 0 ? x : log1p(4x / ((1 - x)^2 + ysq)) / 4
        η = angle(Complex((1 - x) * (1 + x) - ysq, 2y)) / 2
    end
    β * Complex(ξ, η)
end

# Arrays of complex numbers: conjugates, parts, and the products that conjugate.
conj(A::AbstractArray{<:Complex}) = map(conj, A)
real(A::AbstractArray{<:Complex}) = map(real, A)
imag(A::AbstractArray{<:Complex}) = map(imag, A)
norm(x::AbstractVector{<:Complex}) = sqrt(sum(abs2, x))
norm(A::AbstractMatrix{<:Complex}) = sqrt(sum(abs2, A))
# Complex numbers have no order: comparing them is Julia's `MethodError` of `isless`.
function _unordered(z, w)
    p = promote(z, w)
    throw(MethodError(isless, (p[1], p[2])))
end
<(z::Complex, w::Number) = _unordered(z, w)
<(z::Real, w::Complex) = _unordered(z, w)
<=(z::Complex, w::Number) = _unordered(z, w)
<=(z::Real, w::Complex) = _unordered(z, w)
isless(z::Complex, w::Number) = _unordered(z, w)
isless(z::Real, w::Complex) = _unordered(z, w)
function dot(x::AbstractArray{<:Complex}, y::AbstractArray)
    length(x) == length(y) || throw(DimensionMismatch(string("first array has length ", length(x), " which does not match the length of the second, ", length(y), ".")))
    s = zero(conj(first(x)) * first(y))
    for i in 1:length(x)
        s += conj(x[i]) * y[i]
    end
    s
end
_rtol_default(::Type{Complex{T}}) where {T<:Real} = _rtol_default(T)

# Solving complex systems: LU with partial pivoting in the language (`_lu_rect`; the float
# kernels take real matrices), then the row exchanges and two triangular solves. Also the solve
# of a real factorisation with a complex right-hand side.
function _lu_of(A::AbstractMatrix{<:Complex})
    _checksquare(A)
    _lu_rect(A)
end
function _lu_solve(F, piv, B, ::Type{T}) where {T<:Complex}
    X = _solve_copy(B, T)
    n = size(F, 1)
    nrhs = size(X, 2)
    for k in 1:n
        _swap_rows!(X, k, piv[k])
    end
    for c in 1:nrhs
        for j in 1:n
            t = X[j, c]
            for i in (j + 1):n
                X[i, c] -= t * F[i, j]
            end
        end
        _back_subst!(F, X, c, n)
    end
    X
end
round(z::Complex; kwargs...) = Complex(round(real(z); kwargs...), round(imag(z); kwargs...))
