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
    error("not supported yet: `polygamma(m, x)` for m ≥ 2")
end
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
