# The `special` family: Julia's SpecialFunctions and LogExpFunctions packages (`using
# SpecialFunctions`, `using LogExpFunctions`), with the packages' algorithms and errors. The
# special functions of one float are primitives (`Core.erf`, ...) with derivative rules; the
# rest is written here and differentiated through.

erf(x::T) where {T<:AbstractFloat} = Core.erf(x)
erf(x::Real) = erf(float(x))
erfc(x::T) where {T<:AbstractFloat} = Core.erfc(x)
erfc(x::Real) = erfc(float(x))
function erfinv(x::T) where {T<:AbstractFloat}
    abs(x) > 1 && throw(DomainError(abs(x), "`abs(x)` cannot be greater than 1."))
    Core.erfinv(x)
end
erfinv(x::Real) = erfinv(float(x))
# erf(y) - erf(x), from the complementary functions where both are in one tail.
function erf(x::Real, y::Real)
    if abs(x) <= 0.7071067811865476 && abs(y) <= 0.7071067811865476
        erf(y) - erf(x)
    elseif 0 <= x && 0 <= y
        erfc(x) - erfc(y)
    elseif x <= 0 && y <= 0
        erfc(-y) - erfc(-x)
    else
        erf(y) - erf(x)
    end
end
# The scaled complementary error function exp(x²)·erfc(x): the product itself below 2 (where
# it loses a few ulps at most), Laplace's continued fraction above (where the product would
# underflow).
function erfcx(x::Float64)
    x < 2.0 && return exp(x * x) * erfc(x)
    t = x
    for k in 60:-1:1
        t = x + (k / 2) / t
    end
    0.5641895835477563 / t
end
erfcx(x::Real) = erfcx(float(x))
function erfcinv(y::T) where {T<:AbstractFloat}
    y > 0.0625 && return erfinv(1 - y)
    y < 0 && throw(DomainError(y, "`y` must be nonnegative."))
    Core.erfcinv(y)
end
erfcinv(y::Real) = erfcinv(float(y))

# A NaN from a number that is not is a domain error.
function _nan_dom_err(out, x)
    isnan(out) && !isnan(x) && throw(DomainError(x, "NaN result for non-NaN input."))
    out
end
gamma(x::T) where {T<:AbstractFloat} = _nan_dom_err(Core.gamma(x), x)
gamma(x::Real) = gamma(float(x))
function gamma(n::Int64)
    n < 0 && throw(DomainError(n, "`n` must not be negative."))
    n == 0 && return Inf
    n <= 2 && return 1.0
    n > 20 && return gamma(Float64(n))
    Float64(factorial(n - 1))
end
# `(log(abs(gamma(x))), sign(gamma(x)))`; the poles give `(Inf, 1)`.
function logabsgamma(x::T) where {T<:AbstractFloat}
    y = Core.lgamma(x)
    if x < 0 && isfinite(x)
        isinteger(x) && return (y, 1)
        return (y, isodd(Int64(floor(x))) ? -1 : 1)
    end
    (y, 1)
end
logabsgamma(x::Real) = logabsgamma(float(x))
function loggamma(x::Real)
    y, s = logabsgamma(x)
    s < 0 && throw(DomainError(x, "`gamma(x)` must be non-negative"))
    y
end
# (Deprecated in SpecialFunctions, where it means the same.)
lgamma(x::Real) = logabsgamma(x)[1]
digamma(x::T) where {T<:AbstractFloat} = Core.digamma(x)
digamma(x::Real) = digamma(float(x))
trigamma(x::T) where {T<:AbstractFloat} = Core.trigamma(x)
trigamma(x::Real) = trigamma(float(x))
function polygamma(m::Int64, x::Real)
    m == 0 && return digamma(x)
    m == 1 && return trigamma(x)
    m < 0 && throw(DomainError(m, "`real(m)` must be nonnegative, since the definition in this case is ambiguous."))
    Core.polygamma(m, float(x))
end
# ζ plus the asymptotic tail of the Hurwitz zeta function ζ(s, z) for z past the shift: the m-th
# derivative of Stirling's series for digamma (m = s - 1), nested as SpecialFunctions nests it.
function _zeta_tail(ζ::Float64, z::Float64, m::Float64)
    t = inv(z)
    w = t^m
    ζ += w * (inv(m) + 0.5 * t)
    t *= t
    c = (0.08333333333333333, -0.008333333333333333, 0.003968253968253968, -0.004166666666666667,
         0.007575757575757576, -0.021092796092796094, 0.08333333333333333, -0.4432598039215686,
         3.0539543302701198)
    ex = (m + 17) * (m + 16) * (c[9] / (17 * 16))
    for k in 8:-1:2
        ex = (1 / ((2k - 1) * (2k - 2)) * (m + (2k - 1)) * (m + (2k - 2))) * (c[k] + t * ex)
    end
    ζ + w * t * ((m + 1) * (c[1] + t * ex))
end
# The Riemann zeta function ζ(s) of a real s (the reflection formula below 1/2).
function zeta(s::Float64)
    s == 1 && return NaN
    isnan(s) && return s
    isinf(s) && return s > 0 ? 1.0 : NaN
    if s < 0.5
        abs(s) < 1e-3 && return evalpoly(s, (-0.5, -0.918938533204672741780329736405617639861,
            -1.0031782279542924256050500133649802190, -1.00078519447704240796017680222772921424,
            -0.9998792995005711649578008136558752359121))
        return zeta(1 - s) * gamma(1 - s) * sinpi(s * 0.5) * 6.283185307179586^s * 0.3183098861837907
    end
    ζ = 1.0
    for ν in 2:6
        ζₒ = ζ
        ζ += inv(ν)^s
        ζ == ζₒ && break
    end
    _zeta_tail(ζ, 7.0, s - 1)
end
zeta(s::Real) = zeta(float(s))
# The Hurwitz zeta function ζ(s, z) = Σₖ (k + z)^(-s) of real s and z (terms with k + z = 0
# left out), shifted up by its recurrence until the asymptotic series is accurate.
function zeta(s::Float64, z::Float64)
    (z == 1 || z == 0) && return zeta(s)
    s == 2 && return trigamma(z)
    (isnan(s) || isnan(z)) && return NaN
    x = z
    if !isfinite(s)
        if s == Inf
            (x > 1 || (x >= 0.5 ? abs(z) > 1 : abs(z - round(x)) > 1)) && return 0.0
            x > 0 && return Inf
        end
        throw(DomainError(s, "`s` must be finite."))
    end
    m = s - 1
    ζ = 0.0
    cutoff = 7 + m
    if x < cutoff
        xf = floor(x)
        nx = Int64(xf)
        n = Int64(ceil(cutoff - nx))
        minus_s = -s
        if nx < 0
            minus_z = -z
            ζ += minus_z^minus_s
            if xf != z
                ζ += (z - nx)^minus_s
            end
            if s > 0
                for ν in (-nx - 1):-1:1
                    ζₒ = ζ
                    ζ += (minus_z - ν)^minus_s
                    ζ == ζₒ && break
                end
            else
                for ν in 1:(-nx - 1)
                    ζₒ = ζ
                    ζ += (minus_z - ν)^minus_s
                    ζ == ζₒ && break
                end
            end
        else
            ζ += z^minus_s
        end
        if s > 0
            for ν in max(1, 1 - nx):(n - 1)
                ζₒ = ζ
                ζ += (z + ν)^minus_s
                ζ == ζₒ && break
            end
        else
            for ν in (n - 1):-1:max(1, 1 - nx)
                ζₒ = ζ
                ζ += (z + ν)^minus_s
                ζ == ζₒ && break
            end
        end
        z += n
    end
    _zeta_tail(ζ, z, m)
end
zeta(s::Real, z::Real) = zeta(Float64(s), Float64(z))
besselj0(x::T) where {T<:AbstractFloat} = Core.besselj0(x)
besselj0(x::Real) = besselj0(float(x))
besselj1(x::T) where {T<:AbstractFloat} = Core.besselj1(x)
besselj1(x::Real) = besselj1(float(x))
logfactorial(n::Int64) = n < 0 ? throw(DomainError(n, "`x` must be non-negative.")) : loggamma(n + 1)

# log(Γ(b) / Γ(a + b)) for b ≥ 8: Stirling's series of the two, combined without
# cancellation (the NSWC library's algorithm, as SpecialFunctions has it).
function _loggammadiv(a::Float64, b::Float64)
    if a > b
        h = b / a
        c = 1.0 / (1.0 + h)
        x = h / (1.0 + h)
        d = a + (b - 0.5)
    else
        h = a / b
        c = h / (1.0 + h)
        x = 1.0 / (1.0 + h)
        d = b + a - 0.5
    end
    x2 = x * x
    s3 = 1.0 + (x + x2)
    s5 = 1.0 + (x + x2 * s3)
    s7 = 1.0 + (x + x2 * s5)
    s9 = 1.0 + (x + x2 * s7)
    s11 = 1.0 + (x + x2 * s9)
    t = inv(b)^2
    w = evalpoly(t, (0.833333333333333e-1, -0.277777777760991e-2 * s3, 0.793650666825390e-3 * s5,
                     -0.595202931351870e-3 * s7, 0.837308034031215e-3 * s9, -0.165322962780713e-2 * s11))
    w *= c / b
    u = d * log1p(a / b)
    v = a * (log(b) - 1.0)
    u <= v ? w - u - v : w - v - u
end
# `(log(abs(beta(a, b))), sign(beta(a, b)))`.
function logabsbeta(a::Float64, b::Float64)
    a > b && return logabsbeta(b, a)
    if a <= 0 && isinteger(a)
        if a + b <= 0 && isinteger(b)
            return (logbeta(1 - a - b, b), iseven(b) ? 1 : -1)
        end
        return (-log(zero(a)), 1)
    end
    a > 0 && b > 8 && return (_loggammadiv(a, b) + loggamma(a), 1)
    ya, sa = logabsgamma(a)
    yb, sb = logabsgamma(b)
    yab, sab = logabsgamma(a + b)
    (ya + yb - yab, sa * sb * sab)
end
logabsbeta(a::Real, b::Real) = logabsbeta(Float64(a), Float64(b))
function beta(a::Real, b::Real)
    lab, s = logabsbeta(a, b)
    s * exp(lab)
end
function logbeta(a::Real, b::Real)
    lab, s = logabsbeta(a, b)
    s < 0 && throw(DomainError((a, b), "`beta(a, b)` must be non-negative"))
    lab
end

# LogExpFunctions.
function xlogx(x::Real)
    r = x * log(x)
    iszero(x) ? zero(r) : r
end
function xlogy(x::Real, y::Real)
    r = x * log(y)
    iszero(x) && !isnan(y) ? zero(r) : r
end
function xlog1py(x::Real, y::Real)
    r = x * log1p(y)
    iszero(x) && !isnan(y) ? zero(r) : r
end
function xexpx(x::Real)
    ex = exp(x)
    iszero(ex) ? ex : x * ex
end
function logistic(x::Float64)
    ex = exp(x)
    x < -744.4400719213812 ? zero(x) : x > 36.7368005696771 ? one(x) : ex / (one(x) + ex)
end
logistic(x::Real) = logistic(float(x))
logit(x::Real) = 4 * x < 1 ? -log(inv(x) - 1) : 2 * atanh(2 * x - 1)
# log(1 + exp(x)), in the form accurate for each range of x.
function log1pexp(x::Float64)
    x < -745.1332191019412 && return zero(x)
    x < -36.7368005696771 && return exp(x)
    x < 18.021826694558577 && return log1p(exp(x))
    x < 33.23111882352963 && return x + exp(-x)
    x
end
log1pexp(x::Real) = log1pexp(float(x))
log1mexp(x::Real) = x < -0.6931471805599453 ? log1p(-exp(x)) : log(-expm1(x))
log2mexp(x::Real) = log1p(-expm1(x))
logexpm1(x::Real) = x <= 18.0 ? log(expm1(x)) : x <= 33.3 ? x - exp(-x) : float(x)
softplus(x::Real) = log1pexp(x)
softplus(x::Real, a::Real) = log1pexp(a * x) / a
invsoftplus(y::Real) = logexpm1(y)
invsoftplus(y::Real, a::Real) = logexpm1(a * y) / a
loglogistic(x::Real) = -log1pexp(-float(x))
logitexp(x::Real) = -logexpm1(-float(x))
log1mlogistic(x::Real) = -log1pexp(x)
cloglog(x::Real) = log(-log1p(-x))
cexpexp(x::Real) = -expm1(-exp(x))
log1psq(x::Float64) = abs(x) < 9.007199254740992e15 ? log1p(abs2(x)) : 2 * log(abs(x))
log1psq(x::Real) = log1psq(float(x))
function logaddexp(x::Real, y::Real)
    a, b = promote(x, y)
    if a < b
        diff = a - b
        m = b
    else
        diff = a == b ? zero(a - b) : b - a
        m = !isnan(b) ? a : b
    end
    m + log1pexp(diff)
end
function logsubexp(x::Real, y::Real)
    d = x == y && (isfinite(x) || x < 0) ? zero(x - y) : abs(x - y)
    max(x, y) + log1mexp(-d)
end
# log(sum(exp, X)) in one pass: the running maximum and the sum of exp(x - maximum) less one.
function _logsumexp_step(acc, x)
    m, r = acc
    if isnan(x) || isnan(m)
        return (oftype(m, NaN), r + exp(oftype(m, NaN)))
    elseif isinf(x) && isinf(m) && x * m > 0
        return (m, r + exp(zero(x - m)))
    elseif x > m
        return (float(x), (r + one(r)) * exp(m - x))
    end
    (m, r + exp(x - m))
end
function _logsumexp_all(X)
    isempty(X) && return log(sum(X))
    acc = (-Inf, 0.0)
    for x in X
        acc = _logsumexp_step(acc, float(x))
    end
    acc[1] + log1p(acc[2])
end
logsumexp(X) = _logsumexp_all(X)
logsumexp(X::AbstractArray{<:Real}; dims = Colon()) =
    dims isa Colon ? _logsumexp_all(X) : mapslices(_logsumexp_all, X; dims = dims)
function softmax!(r::AbstractArray, x::AbstractArray; dims = Colon())
    if dims isa Colon
        length(r) == length(x) || throw(DimensionMismatch("inconsistent array lengths"))
        u = maximum(x)
        for i in eachindex(r, x)
            r[i] = exp(x[i] - u)
        end
        s = inv(sum(r))
        for i in eachindex(r)
            r[i] = s * r[i]
        end
        return r
    end
    size(r) == size(x) || throw(DimensionMismatch("inconsistent array sizes"))
    u = maximum(x; dims = dims)
    r .= exp.(x .- u)
    r ./= sum(r; dims = dims)
    r
end
softmax!(x::AbstractArray; dims = Colon()) = softmax!(x, x; dims = dims)
softmax(x::AbstractArray{<:Real}; dims = Colon()) = softmax!(similar(x, float(eltype(x))), x; dims = dims)

# The regularized incomplete gamma functions `gamma_inc(a, x) = (P(a, x), Q(a, x))`: the power
# series of P where x < a + 1, Legendre's continued fraction of Q elsewhere (modified Lentz),
# the other one as the complement; the prefactor x^a e^-x / Γ(a) is taken in logs. Relative
# accuracy near 1e-14 for a below a few hundred (the package's Temme expansions keep full
# accuracy for large a; here the prefactor loses about log10(a) digits there).
function gamma_inc(a::Float64, x::Float64)
    if a < 0.0 || x < 0.0 || (a == 0.0 && x == 0.0)
        throw(DomainError((a, x, 0), "`a` and `x` must be greater than 0 ---- Domain : (0, Inf)"))
    end
    if isnan(a) || isnan(x)
        ax = a * x
        return (ax, ax)
    end
    (a == 0.0 || isinf(x)) && return (1.0, 0.0)
    x == 0.0 && return (0.0, 1.0)
    logpre = a * log(x) - x - loggamma(a)
    if x < a + 1.0
        term = 1.0 / a
        s = term
        n = 1
        while n < 100000
            term *= x / (a + n)
            s += term
            abs(term) < abs(s) * 1.0e-17 && break
            n += 1
        end
        p = exp(logpre) * s
        return (p, 1.0 - p)
    end
    tiny = 1.0e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    i = 1
    while i < 100000
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        abs(d) < tiny && (d = tiny)
        c = b + an / c
        abs(c) < tiny && (c = tiny)
        d = 1.0 / d
        del = d * c
        h *= del
        abs(del - 1.0) < 1.0e-16 && break
        i += 1
    end
    q = exp(logpre) * h
    (1.0 - q, q)
end
gamma_inc(a::Real, x::Real) = gamma_inc(Float64(a), Float64(x))

# The continued fraction of the regularized incomplete beta function (modified Lentz).
function _beta_cf(a::Float64, b::Float64, x::Float64)
    tiny = 1.0e-300
    qab = a + b
    qap = a + 1.0
    qam = a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    abs(d) < tiny && (d = tiny)
    d = 1.0 / d
    h = d
    m = 1
    while m < 100000
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        abs(d) < tiny && (d = tiny)
        c = 1.0 + aa / c
        abs(c) < tiny && (c = tiny)
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        abs(d) < tiny && (d = tiny)
        c = 1.0 + aa / c
        abs(c) < tiny && (c = tiny)
        d = 1.0 / d
        del = d * c
        h *= del
        abs(del - 1.0) < 1.0e-16 && break
        m += 1
    end
    h
end

# The regularized incomplete beta function `beta_inc(a, b, x) = (I_x(a, b), 1 - I_x(a, b))`:
# the continued fraction on the side of x where it converges quickly, the other value as
# the complement, the prefactor x^a (1 - x)^b / B(a, b) taken in logs.
function beta_inc(a::Float64, b::Float64, x::Float64)
    (a < 0.0 || b < 0.0) && throw(DomainError((a, b), "a or b is negative"))
    a == 0.0 && b == 0.0 && throw(DomainError((a, b), "a and b are 0.0"))
    (x < 0.0 || x > 1.0) && throw(DomainError(x, "x < 0 or x > 1"))
    (isnan(x) || isnan(a) || isnan(b)) && return (NaN, NaN)
    x == 0.0 && return (0.0, 1.0)
    x == 1.0 && return (1.0, 0.0)
    a == 0.0 && return (1.0, 0.0)
    b == 0.0 && return (0.0, 1.0)
    logpre = a * log(x) + b * log1p(-x) - logbeta(a, b)
    if x < (a + 1.0) / (a + b + 2.0)
        p = exp(logpre) * _beta_cf(a, b, x) / a
        return (p, 1.0 - p)
    end
    q = exp(logpre) * _beta_cf(b, a, 1.0 - x) / b
    (1.0 - q, q)
end
beta_inc(a::Real, b::Real, x::Real) = beta_inc(Float64(a), Float64(b), Float64(x))
