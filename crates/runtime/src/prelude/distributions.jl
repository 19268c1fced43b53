# The Distributions package (`using Distributions`): the common univariate distributions, the
# multivariate normal and the Dirichlet, with the package's parameter checks, its densities
# (StatsFuns' formulas, so values agree to rounding), moments, distribution functions and
# sampling. Everything is written here and differentiated through: gradients of `logpdf`
# with respect to parameters and data need no rules of their own.
#
# Sampling uses the generators of `random.jl` with standard exact algorithms (Marsaglia and
# Tsang's gamma method, Hörmann's PTRS for large Poisson means, inversion elsewhere): draws
# follow the right distribution, but are not the package's stream of numbers.

abstract type Distribution end
abstract type UnivariateDistribution <: Distribution end
abstract type ContinuousUnivariateDistribution <: UnivariateDistribution end
abstract type DiscreteUnivariateDistribution <: UnivariateDistribution end
abstract type MultivariateDistribution <: Distribution end
abstract type ContinuousMultivariateDistribution <: MultivariateDistribution end
abstract type DiscreteMultivariateDistribution <: MultivariateDistribution end

# A distribution is one value to broadcasting (`logpdf.(Normal(0, 1), x)`), as the package's
# `broadcastable` makes it.
_bprep(d::Distribution) = Ref(d)

# The package's `@check_args`: a parameter outside its domain is a `DomainError` carrying it.
function _check_arg(ok::Bool, name::String, val, condition::String)
    ok || throw(DomainError(val, string(name, ": the condition ", condition, " is not satisfied.")))
    nothing
end

const _log2π = 1.8378770664093453
const _logπ = 1.1447298858494002
const _log4π = 2.5310242469692907
const _invsqrt2 = 0.7071067811865476
const _sqrt2 = 1.4142135623730951
const _logtwo = 0.6931471805599453
const _invπ = 0.3183098861837907

# ---------------------------------------------------------------- generic definitions

std(d::UnivariateDistribution) = sqrt(var(d))
pdf(d::UnivariateDistribution, x::Real) = exp(logpdf(d, x))
ccdf(d::UnivariateDistribution, x::Real) = 1 - cdf(d, x)
logcdf(d::UnivariateDistribution, x::Real) = log(cdf(d, x))
logccdf(d::UnivariateDistribution, x::Real) = log(ccdf(d, x))
insupport(d::UnivariateDistribution, x::Real) = minimum(d) <= x <= maximum(d)
# The sum of the log densities of the observations `x` (one value, or an array of them).
loglikelihood(d::UnivariateDistribution, x::Real) = logpdf(d, x)
function loglikelihood(d::UnivariateDistribution, x::AbstractArray)
    s = zero(logpdf(d, first(x)))
    for xi in x
        s += logpdf(d, xi)
    end
    s
end
loglikelihood(d::MultivariateDistribution, x::AbstractVector) = logpdf(d, x)
loglikelihood(d::MultivariateDistribution, x::AbstractMatrix) = sum(logpdf(d, x))
pdf(d::MultivariateDistribution, x::AbstractVector) = exp(logpdf(d, x))
function logpdf(d::MultivariateDistribution, X::AbstractMatrix)
    size(X, 1) == length(d) || throw(DimensionMismatch("Inconsistent array dimensions."))
    [logpdf(d, X[:, j]) for j in 1:size(X, 2)]
end
length(d::UnivariateDistribution) = 1
size(d::UnivariateDistribution) = ()
size(d::MultivariateDistribution) = (length(d),)

rand(rng::AbstractRNG, d::UnivariateDistribution, n::Int64) = [rand(rng, d) for _ in 1:n]
function rand(rng::AbstractRNG, d::UnivariateDistribution, dims::Tuple{Int64,Int64})
    x = [rand(rng, d) for _ in 1:(dims[1] * dims[2])]
    reshape(x, dims[1], dims[2])
end
rand(rng::AbstractRNG, d::UnivariateDistribution, m::Int64, n::Int64) = rand(rng, d, (m, n))
function rand(rng::AbstractRNG, d::MultivariateDistribution, n::Int64)
    X = Matrix{Float64}(undef, length(d), n)
    for j in 1:n
        X[:, j] = rand(rng, d)
    end
    X
end
rand(d::Distribution, n::Int64) = rand(default_rng(), d, n)
rand(d::Distribution, m::Int64, n::Int64) = rand(default_rng(), d, m, n)
function rand!(rng::AbstractRNG, d::UnivariateDistribution, A::AbstractArray)
    for i in eachindex(A)
        A[i] = rand(rng, d)
    end
    A
end
rand!(d::UnivariateDistribution, A::AbstractArray) = rand!(default_rng(), d, A)


# ---------------------------------------------------------------- StatsFuns' kernels

# The standardised value and the scale a normal density divides by: a point mass (σ = 0)
# gives z = 0 at μ, and ±Inf with scale one elsewhere (StatsFuns' limits).
function _normzσ(μ, σ, x)
    if iszero(σ)
        x == μ && return ((x - μ) / one(σ), σ)
        return ((x - μ) / σ, one(σ))
    end
    ((x - μ) / σ, σ)
end
function _normlogpdf(μ, σ, x)
    z, s = _normzσ(μ, σ, x)
    -(abs2(z) + _log2π) / 2 - log(s)
end
function _normz(μ, σ, x)
    if iszero(σ) && x == μ
        return (one(x) - zero(μ)) / σ
    end
    (x - μ) / σ
end
# (At z = ±Inf the values are the constant limits, whose derivatives are zero rather than
# the NaN of a zero density times an infinite dz.)
function _normcdf(μ, σ, x)
    z = _normz(μ, σ, x)
    isinf(z) && return z > 0 ? one(z) : zero(z)
    erfc(-z * _invsqrt2) / 2
end
function _normccdf(μ, σ, x)
    z = _normz(μ, σ, x)
    isinf(z) && return z > 0 ? zero(z) : one(z)
    erfc(z * _invsqrt2) / 2
end
function _normlogcdf(μ, σ, x)
    z = _normz(μ, σ, x)
    isinf(z) && return z > 0 ? zero(z) : oftype(z, -Inf)
    z < -1.0 ? log(erfc(-z * _invsqrt2) / 2) : log1p(-erfc(z * _invsqrt2) / 2)
end
function _normlogccdf(μ, σ, x)
    z = _normz(μ, σ, x)
    isinf(z) && return z > 0 ? oftype(z, -Inf) : zero(z)
    z > 1.0 ? log(erfc(z * _invsqrt2) / 2) : log1p(-erfc(-z * _invsqrt2) / 2)
end
_norminvcdf(μ, σ, p) = μ + σ * (-erfcinv(2 * p) * _sqrt2)

function _gammalogpdf(k, θ, x)
    xθ = max(x, 0) / θ
    val = -loggamma(k) - log(θ) - xθ
    if isfinite(xθ)
        val += xlogy(k - 1, xθ)
    end
    x < 0 ? oftype(val, -Inf) : val
end
_gammacdf(k, θ, x) = iszero(k) ? float(x >= 0) : first(gamma_inc(k, max(0, x) / θ))
_gammaccdf(k, θ, x) = iszero(k) ? float(x < 0) : last(gamma_inc(k, max(0, x) / θ))

function _betalogpdf(α, β, x)
    y = clamp(x, 0, 1)
    val = xlogy(α - 1, y) + xlog1py(β - 1, -y) - logbeta(α, β)
    x < 0 || x > 1 ? oftype(val, -Inf) : val
end
function _betacdf(α, β, x)
    iszero(α) && β > 0 && return float(x >= 0)
    iszero(β) && α > 0 && return float(x >= 1)
    first(beta_inc(α, β, clamp(x, 0, 1)))
end
function _betaccdf(α, β, x)
    iszero(α) && β > 0 && return float(x < 0)
    iszero(β) && α > 0 && return float(x < 1)
    last(beta_inc(α, β, clamp(x, 0, 1)))
end

# The x in [lo, hi] where the increasing function F (with derivative f) equals p: Newton steps
# kept inside a bracket that shrinks around the root (bisecting when a step would leave it),
# to full precision. A last Newton step from the converged point carries the derivatives of
# x with respect to p and to the parameters F depends on (those of the root itself).
function _invert_increasing(F, f, p, x, lo, hi)
    lo0, hi0 = lo, hi
    for _ in 1:300
        Fx = F(x)
        Fx == p && break
        if Fx < p
            lo = x
        else
            hi = x
        end
        xn = x - (Fx - p) / f(x)
        if !(lo < xn < hi)
            xn = isfinite(hi) ? (lo + hi) / 2 : 2 * abs(x) + 1
        end
        done = abs(xn - x) <= 4 * eps(abs(xn)) || hi - lo <= 4 * eps(abs(hi))
        x = xn
        done && break
    end
    fx = f(x)
    fx > 0 && isfinite(fx) ? clamp(x - (F(x) - p) / fx, lo0, hi0) : x
end
function _check_probability(p)
    0 <= p <= 1 || throw(DomainError(p, "the probability must be in [0, 1]"))
    nothing
end
# The quantile of a continuous distribution on [lo, hi] from its cdf, ccdf and pdf, starting
# at x0: the lower tail inverts the cdf, the upper tail the ccdf (so small upper-tail
# probabilities keep their precision).
function _continuous_quantile(d, p, x0, lo, hi)
    _check_probability(p)
    p == 0 && return float(lo)
    p == 1 && return float(hi)
    x0 = clamp(x0, nextfloat(float(lo)), prevfloat(float(hi)))
    if p <= 0.5
        return _invert_increasing(x -> cdf(d, x), x -> pdf(d, x), p, x0, lo, hi)
    end
    _invert_increasing(x -> -ccdf(d, x), x -> pdf(d, x), -(1 - p), x0, lo, hi)
end

# The smallest k of the support 0:hi (hi may be Inf) with cdf(d, k) ≥ p, as R's qpois and
# qbinom find it: p is lowered by 64 ulps so that a probability computed as a cdf value finds
# its own k; the search starts at the normal approximation `k0`.
function _discrete_quantile(d, p, k0, hi)
    0 <= p <= 1 || throw(InexactError(:Int64, Int64, NaN))
    p == 0 && return 0
    if p == 1
        isinf(hi) && throw(InexactError(:Int64, Int64, Inf))
        return Int64(hi)
    end
    target = p * (1 - 64 * eps(Float64))
    k = Int64(clamp(round(k0), 0.0, min(float(hi), 9.0e15)))
    if cdf(d, k) >= target
        while k > 0 && cdf(d, k - 1) >= target
            k -= 1
        end
    else
        while k < hi && cdf(d, k) < target
            k += 1
        end
    end
    k
end

# ---------------------------------------------------------------- Normal

struct Normal{T<:Real} <: ContinuousUnivariateDistribution
    μ::T
    σ::T
    Normal{T}(μ, σ) where {T<:Real} = new{T}(μ, σ)
end
function Normal(μ::T, σ::T; check_args::Bool = true) where {T<:Real}
    check_args && _check_arg(σ >= zero(σ), "Normal", σ, "σ >= zero(σ)")
    Normal{T}(μ, σ)
end
Normal(μ::Real, σ::Real; check_args::Bool = true) = Normal(promote(μ, σ)...; check_args = check_args)
Normal(μ::Int64, σ::Int64; check_args::Bool = true) = Normal(float(μ), float(σ); check_args = check_args)
Normal(μ::Real) = Normal(μ, one(μ); check_args = false)
Normal() = Normal(0.0, 1.0; check_args = false)
const Gaussian = Normal

params(d::Normal) = (d.μ, d.σ)
partype(d::Normal{T}) where {T} = T
location(d::Normal) = d.μ
scale(d::Normal) = d.σ
mean(d::Normal) = d.μ
median(d::Normal) = d.μ
mode(d::Normal) = d.μ
var(d::Normal) = abs2(d.σ)
std(d::Normal) = d.σ
skewness(d::Normal{T}) where {T} = zero(T)
kurtosis(d::Normal{T}) where {T} = zero(T)
entropy(d::Normal) = (_log2π + 1) / 2 + log(d.σ)
minimum(d::Normal) = -Inf
maximum(d::Normal) = Inf
function pdf(d::Normal, x::Real)
    z, s = _normzσ(d.μ, d.σ, x)
    exp(-abs2(z) / 2) * 0.3989422804014327 / s
end
logpdf(d::Normal, x::Real) = _normlogpdf(d.μ, d.σ, x)
cdf(d::Normal, x::Real) = _normcdf(d.μ, d.σ, x)
ccdf(d::Normal, x::Real) = _normccdf(d.μ, d.σ, x)
logcdf(d::Normal, x::Real) = _normlogcdf(d.μ, d.σ, x)
logccdf(d::Normal, x::Real) = _normlogccdf(d.μ, d.σ, x)
quantile(d::Normal, p::Real) = _norminvcdf(d.μ, d.σ, p)
cquantile(d::Normal, p::Real) = _norminvcdf(d.μ, d.σ, 1 - p)
gradlogpdf(d::Normal, x::Real) = (d.μ - x) / d.σ^2
rand(rng::AbstractRNG, d::Normal) = muladd(d.σ, randn(rng), d.μ)
+(d::Normal, c::Real) = Normal(d.μ + c, d.σ)
+(c::Real, d::Normal) = d + c
-(d::Normal, c::Real) = Normal(d.μ - c, d.σ)
*(c::Real, d::Normal) = Normal(c * d.μ, abs(c) * d.σ)
*(d::Normal, c::Real) = c * d

# ---------------------------------------------------------------- LogNormal

struct LogNormal{T<:Real} <: ContinuousUnivariateDistribution
    μ::T
    σ::T
    LogNormal{T}(μ, σ) where {T<:Real} = new{T}(μ, σ)
end
function LogNormal(μ::T, σ::T; check_args::Bool = true) where {T<:Real}
    check_args && _check_arg(σ >= zero(σ), "LogNormal", σ, "σ ≥ zero(σ)")
    LogNormal{T}(μ, σ)
end
LogNormal(μ::Real, σ::Real; check_args::Bool = true) = LogNormal(promote(μ, σ)...; check_args = check_args)
LogNormal(μ::Int64, σ::Int64; check_args::Bool = true) = LogNormal(float(μ), float(σ); check_args = check_args)
LogNormal(μ::Real) = LogNormal(μ, one(μ); check_args = false)
LogNormal() = LogNormal(0.0, 1.0; check_args = false)

params(d::LogNormal) = (d.μ, d.σ)
partype(d::LogNormal{T}) where {T} = T
meanlogx(d::LogNormal) = d.μ
varlogx(d::LogNormal) = abs2(d.σ)
stdlogx(d::LogNormal) = d.σ
mean(d::LogNormal) = exp(d.μ + d.σ^2 / 2)
median(d::LogNormal) = exp(d.μ)
mode(d::LogNormal) = exp(d.μ - d.σ^2)
function var(d::LogNormal)
    σ2 = d.σ^2
    (exp(σ2) - 1) * exp(2 * d.μ + σ2)
end
entropy(d::LogNormal) = (1 + log(6.283185307179586 * d.σ^2)) / 2 + d.μ
minimum(d::LogNormal) = 0.0
maximum(d::LogNormal) = Inf
function logpdf(d::LogNormal, x::Real)
    if x <= zero(x)
        logx = log(zero(x))
        b = zero(logx)
    else
        logx = log(x)
        b = logx
    end
    _normlogpdf(d.μ, d.σ, logx) - b
end
cdf(d::LogNormal, x::Real) = _normcdf(d.μ, d.σ, log(max(x, zero(x))))
ccdf(d::LogNormal, x::Real) = _normccdf(d.μ, d.σ, log(max(x, zero(x))))
logcdf(d::LogNormal, x::Real) = _normlogcdf(d.μ, d.σ, log(max(x, zero(x))))
logccdf(d::LogNormal, x::Real) = _normlogccdf(d.μ, d.σ, log(max(x, zero(x))))
quantile(d::LogNormal, p::Real) = exp(_norminvcdf(d.μ, d.σ, p))
rand(rng::AbstractRNG, d::LogNormal) = exp(muladd(d.σ, randn(rng), d.μ))

# ---------------------------------------------------------------- Gamma (shape α, scale θ)

struct Gamma{T<:Real} <: ContinuousUnivariateDistribution
    α::T
    θ::T
    Gamma{T}(α, θ) where {T<:Real} = new{T}(α, θ)
end
function Gamma(α::T, θ::T; check_args::Bool = true) where {T<:Real}
    if check_args
        _check_arg(α > zero(α), "Gamma", α, "α > zero(α)")
        _check_arg(θ > zero(θ), "Gamma", θ, "θ > zero(θ)")
    end
    Gamma{T}(α, θ)
end
Gamma(α::Real, θ::Real; check_args::Bool = true) = Gamma(promote(α, θ)...; check_args = check_args)
Gamma(α::Int64, θ::Int64; check_args::Bool = true) = Gamma(float(α), float(θ); check_args = check_args)
Gamma(α::Real; check_args::Bool = true) = Gamma(α, one(α); check_args = check_args)
Gamma() = Gamma(1.0, 1.0; check_args = false)

params(d::Gamma) = (d.α, d.θ)
partype(d::Gamma{T}) where {T} = T
shape(d::Gamma) = d.α
scale(d::Gamma) = d.θ
rate(d::Gamma) = 1 / d.θ
mean(d::Gamma) = d.α * d.θ
var(d::Gamma) = d.α * d.θ^2
skewness(d::Gamma) = 2 / sqrt(d.α)
kurtosis(d::Gamma) = 6 / d.α
mode(d::Gamma) = d.α >= 1 ? d.θ * (d.α - 1) : error("Gamma has no mode when shape < 1")
entropy(d::Gamma) = d.α + loggamma(d.α) + (1 - d.α) * digamma(d.α) + log(d.θ)
minimum(d::Gamma) = 0.0
maximum(d::Gamma) = Inf
logpdf(d::Gamma, x::Real) = _gammalogpdf(d.α, d.θ, x)
cdf(d::Gamma, x::Real) = _gammacdf(d.α, d.θ, x)
ccdf(d::Gamma, x::Real) = _gammaccdf(d.α, d.θ, x)
gradlogpdf(d::Gamma{T}, x::Real) where {T} = x >= 0 ? (d.α - 1) / x - 1 / d.θ : zero(T)
# Started from Wilson and Hilferty's cube-root normal approximation, or from the first term of
# the series near zero when that is not positive.
function quantile(d::Gamma, p::Real)
    α, θ = d.α, d.θ
    z = -erfcinv(2 * clamp(p, 1e-300, 1 - 1e-16)) * _sqrt2
    x0 = α * (1 - 1 / (9α) + z / (3 * sqrt(α)))^3
    if !(x0 > 0.01 * α)
        x0 = exp((log(clamp(p, 1e-300, 1.0)) + loggamma(α + 1)) / α)
    end
    _continuous_quantile(d, p, θ * x0, zero(θ * x0), oftype(θ * x0, Inf))
end
cquantile(d::Gamma, p::Real) = quantile(d, 1 - p)
# Marsaglia and Tsang's method; a shape below one by the boost u^(1/α).
function _rand_gamma(rng::AbstractRNG, α::Float64)
    if α < 1.0
        return _rand_gamma(rng, α + 1.0) * rand(rng)^(1.0 / α)
    end
    d = α - 1.0 / 3.0
    c = 1.0 / sqrt(9.0 * d)
    while true
        x = randn(rng)
        v = 1.0 + c * x
        v <= 0.0 && continue
        v = v * v * v
        u = rand(rng)
        if u < 1.0 - 0.0331 * x^4 || log(u) < x^2 / 2 + d * (1.0 - v + log(v))
            return d * v
        end
    end
end
rand(rng::AbstractRNG, d::Gamma) = _rand_gamma(rng, Float64(d.α)) * d.θ

# ---------------------------------------------------------------- Beta

struct Beta{T<:Real} <: ContinuousUnivariateDistribution
    α::T
    β::T
    Beta{T}(α, β) where {T<:Real} = new{T}(α, β)
end
function Beta(α::T, β::T; check_args::Bool = true) where {T<:Real}
    if check_args
        _check_arg(α > zero(α), "Beta", α, "α > zero(α)")
        _check_arg(β > zero(β), "Beta", β, "β > zero(β)")
    end
    Beta{T}(α, β)
end
Beta(α::Real, β::Real; check_args::Bool = true) = Beta(promote(α, β)...; check_args = check_args)
Beta(α::Int64, β::Int64; check_args::Bool = true) = Beta(float(α), float(β); check_args = check_args)
function Beta(α::Real; check_args::Bool = true)
    check_args && _check_arg(α > zero(α), "Beta", α, "α > zero(α)")
    Beta(α, α; check_args = false)
end
Beta() = Beta(1.0, 1.0; check_args = false)

params(d::Beta) = (d.α, d.β)
partype(d::Beta{T}) where {T} = T
mean(d::Beta) = d.α / (d.α + d.β)
function var(d::Beta)
    s = d.α + d.β
    (d.α * d.β) / (abs2(s) * (s + 1))
end
function mode(d::Beta)
    d.α > 1 || throw(DomainError(d.α, "Beta: mode is defined only when α > 1."))
    d.β > 1 || throw(DomainError(d.β, "Beta: mode is defined only when β > 1."))
    (d.α - 1) / (d.α + d.β - 2)
end
function entropy(d::Beta)
    α, β = d.α, d.β
    s = α + β
    logbeta(α, β) - (α - 1) * digamma(α) - (β - 1) * digamma(β) + (s - 2) * digamma(s)
end
minimum(d::Beta) = 0.0
maximum(d::Beta) = 1.0
logpdf(d::Beta, x::Real) = _betalogpdf(d.α, d.β, x)
cdf(d::Beta, x::Real) = _betacdf(d.α, d.β, x)
ccdf(d::Beta, x::Real) = _betaccdf(d.α, d.β, x)
function quantile(d::Beta, p::Real)
    x0 = d.α / (d.α + d.β)
    _continuous_quantile(d, p, x0, zero(x0), one(x0))
end
cquantile(d::Beta, p::Real) = quantile(d, 1 - p)
function rand(rng::AbstractRNG, d::Beta)
    x = _rand_gamma(rng, Float64(d.α))
    y = _rand_gamma(rng, Float64(d.β))
    x / (x + y)
end

# ---------------------------------------------------------------- Exponential (scale θ)

struct Exponential{T<:Real} <: ContinuousUnivariateDistribution
    θ::T
    Exponential{T}(θ) where {T<:Real} = new{T}(θ)
end
function Exponential(θ::Real; check_args::Bool = true)
    check_args && _check_arg(θ > zero(θ), "Exponential", θ, "θ > zero(θ)")
    Exponential{typeof(θ)}(θ)
end
Exponential() = Exponential(1.0; check_args = false)

params(d::Exponential) = (d.θ,)
partype(d::Exponential{T}) where {T} = T
scale(d::Exponential) = d.θ
rate(d::Exponential) = inv(d.θ)
mean(d::Exponential) = d.θ
median(d::Exponential) = _logtwo * d.θ
mode(d::Exponential{T}) where {T} = zero(T)
var(d::Exponential) = d.θ^2
skewness(d::Exponential{T}) where {T} = T(2)
kurtosis(d::Exponential{T}) where {T} = T(6)
entropy(d::Exponential{T}) where {T} = one(T) + log(d.θ)
minimum(d::Exponential) = 0.0
maximum(d::Exponential) = Inf
function pdf(d::Exponential, x::Real)
    λ = rate(d)
    z = λ * exp(-λ * max(x, 0))
    x < 0 ? zero(z) : z
end
function logpdf(d::Exponential, x::Real)
    λ = rate(d)
    z = log(λ) - λ * x
    x < 0 ? oftype(z, -Inf) : z
end
cdf(d::Exponential, x::Real) = -expm1(-max(x / d.θ, 0))
ccdf(d::Exponential, x::Real) = exp(-max(x / d.θ, 0))
logcdf(d::Exponential, x::Real) = log1mexp(-max(x / d.θ, 0))
logccdf(d::Exponential, x::Real) = -max(x / d.θ, 0)
quantile(d::Exponential, p::Real) = -(log1p(-p) * d.θ)
gradlogpdf(d::Exponential{T}, x::Real) where {T} = x > 0 ? -rate(d) : zero(T)
rand(rng::AbstractRNG, d::Exponential) = randexp(rng) * d.θ

# ---------------------------------------------------------------- Uniform

struct Uniform{T<:Real} <: ContinuousUnivariateDistribution
    a::T
    b::T
    Uniform{T}(a, b) where {T<:Real} = new{T}(a, b)
end
function Uniform(a::T, b::T; check_args::Bool = true) where {T<:Real}
    check_args && (a < b || throw(DomainError((a = a, b = b), "Uniform: a must be less than b")))
    Uniform{T}(a, b)
end
Uniform(a::Real, b::Real; check_args::Bool = true) = Uniform(promote(a, b)...; check_args = check_args)
Uniform(a::Int64, b::Int64; check_args::Bool = true) = Uniform(float(a), float(b); check_args = check_args)
Uniform() = Uniform(0.0, 1.0; check_args = false)

params(d::Uniform) = (d.a, d.b)
partype(d::Uniform{T}) where {T} = T
location(d::Uniform) = d.a
scale(d::Uniform) = d.b - d.a
mean(d::Uniform) = middle(d.a, d.b)
median(d::Uniform) = mean(d)
mode(d::Uniform) = mean(d)
var(d::Uniform) = (d.b - d.a)^2 / 12
entropy(d::Uniform) = log(d.b - d.a)
minimum(d::Uniform) = d.a
maximum(d::Uniform) = d.b
function pdf(d::Uniform, x::Real)
    val = inv(d.b - d.a)
    insupport(d, x) ? val : zero(val)
end
function logpdf(d::Uniform, x::Real)
    val = -log(d.b - d.a)
    insupport(d, x) ? val : oftype(val, -Inf)
end
cdf(d::Uniform, x::Real) = clamp((x - d.a) / (d.b - d.a), 0, 1)
ccdf(d::Uniform, x::Real) = clamp((d.b - x) / (d.b - d.a), 0, 1)
quantile(d::Uniform, p::Real) = d.a + p * (d.b - d.a)
rand(rng::AbstractRNG, d::Uniform) = d.a + (d.b - d.a) * rand(rng)

# ---------------------------------------------------------------- Cauchy

struct Cauchy{T<:Real} <: ContinuousUnivariateDistribution
    μ::T
    σ::T
    Cauchy{T}(μ, σ) where {T<:Real} = new{T}(μ, σ)
end
function Cauchy(μ::T, σ::T; check_args::Bool = true) where {T<:Real}
    check_args && _check_arg(σ > zero(σ), "Cauchy", σ, "σ > zero(σ)")
    Cauchy{T}(μ, σ)
end
Cauchy(μ::Real, σ::Real; check_args::Bool = true) = Cauchy(promote(μ, σ)...; check_args = check_args)
Cauchy(μ::Int64, σ::Int64; check_args::Bool = true) = Cauchy(float(μ), float(σ); check_args = check_args)
Cauchy(μ::Real) = Cauchy(μ, one(μ); check_args = false)
Cauchy() = Cauchy(0.0, 1.0; check_args = false)

params(d::Cauchy) = (d.μ, d.σ)
partype(d::Cauchy{T}) where {T} = T
location(d::Cauchy) = d.μ
scale(d::Cauchy) = d.σ
mean(d::Cauchy{T}) where {T} = T(NaN)
median(d::Cauchy) = d.μ
mode(d::Cauchy) = d.μ
var(d::Cauchy{T}) where {T} = T(NaN)
entropy(d::Cauchy) = _log4π + log(d.σ)
minimum(d::Cauchy) = -Inf
maximum(d::Cauchy) = Inf
pdf(d::Cauchy, x::Real) = 1 / (π * d.σ * (1 + ((x - d.μ) / d.σ)^2))
logpdf(d::Cauchy, x::Real) = -(log1psq((x - d.μ) / d.σ) + _logπ + log(d.σ))
function cdf(d::Cauchy, x::Real)
    μ, σ = d.μ, d.σ
    _invπ * atan(x - μ, σ) + 1 / 2
end
function ccdf(d::Cauchy, x::Real)
    μ, σ = d.μ, d.σ
    _invπ * atan(μ - x, σ) + 1 / 2
end
function quantile(d::Cauchy, p::Real)
    μ, σ = d.μ, d.σ
    μ + σ * tan(π * (p - 1 / 2))
end
rand(rng::AbstractRNG, d::Cauchy) = d.μ + d.σ * tan(π * (rand(rng) - 0.5))

# ---------------------------------------------------------------- Student's t

struct TDist{T<:Real} <: ContinuousUnivariateDistribution
    ν::T
    TDist{T}(ν) where {T<:Real} = new{T}(ν)
end
function TDist(ν::Real; check_args::Bool = true)
    check_args && _check_arg(ν > zero(ν), "TDist", ν, "ν > zero(ν)")
    TDist{typeof(ν)}(ν)
end

params(d::TDist) = (d.ν,)
partype(d::TDist{T}) where {T} = T
dof(d::TDist) = d.ν
mean(d::TDist{T}) where {T} = d.ν > 1 ? zero(T) : T(NaN)
median(d::TDist{T}) where {T} = zero(T)
mode(d::TDist{T}) where {T} = zero(T)
function var(d::TDist{T}) where {T}
    ν = d.ν
    ν > 2 && return ν / (ν - 2)
    ν > 1 && return T(Inf)
    T(NaN)
end
minimum(d::TDist) = -Inf
maximum(d::TDist) = Inf
function logpdf(d::TDist, x::Real)
    ν, x = promote(d.ν, x)
    isinf(ν) && return _normlogpdf(zero(x), one(x), x)
    νp12 = (ν + 1) / 2
    loggamma(νp12) - (_logπ + log(ν)) / 2 - loggamma(ν / 2) - νp12 * log1p(x^2 / ν)
end
function cdf(d::TDist, x::Real)
    ν, x = map(float, promote(d.ν, x))
    isinf(ν) && return _normcdf(zero(x), one(x), x)
    c = _betaccdf(one(ν) / 2, ν / 2, inv(1 + ν / max(0, x^2)))
    x < 0 ? c / 2 : 1 - c / 2
end
ccdf(d::TDist, x::Real) = cdf(d, -x)
# Symmetric about zero. A tail probability q of |T| > t is a beta probability of
# y = ν / (ν + t²) (I_y(ν/2, 1/2) = 2q), or of 1 - y for the central half, so the quantile
# comes from the beta quantile that keeps its precision: far tails stay accurate.
function quantile(d::TDist, p::Real)
    _check_probability(p)
    ν = float(d.ν)
    isinf(ν) && return _norminvcdf(zero(ν), one(ν), p)
    q = p < 0.5 ? p : 1 - p
    if q == 0
        t = oftype(ν, Inf)
    elseif 2q <= 0.5
        y = quantile(Beta(ν / 2, oftype(ν, 0.5)), 2q)
        t = sqrt(ν * ((1 - y) / y))
    else
        w = quantile(Beta(oftype(ν, 0.5), ν / 2), 1 - 2q)
        t = sqrt(ν * (w / (1 - w)))
    end
    p < 0.5 ? -t : t
end
cquantile(d::TDist, p::Real) = -quantile(d, p)
function rand(rng::AbstractRNG, d::TDist)
    ν = Float64(d.ν)
    isinf(ν) && return randn(rng)
    randn(rng) / sqrt(2.0 * _rand_gamma(rng, ν / 2) / ν)
end

# ---------------------------------------------------------------- Bernoulli

struct Bernoulli{T<:Real} <: DiscreteUnivariateDistribution
    p::T
    Bernoulli{T}(p) where {T<:Real} = new{T}(p)
end
function Bernoulli(p::Real; check_args::Bool = true)
    check_args && _check_arg(zero(p) <= p <= one(p), "Bernoulli", p, "zero(p) <= p <= one(p)")
    Bernoulli{typeof(p)}(p)
end
Bernoulli() = Bernoulli(0.5; check_args = false)

params(d::Bernoulli) = (d.p,)
partype(d::Bernoulli{T}) where {T} = T
succprob(d::Bernoulli) = d.p
failprob(d::Bernoulli) = 1 - d.p
mean(d::Bernoulli) = d.p
var(d::Bernoulli) = succprob(d) * failprob(d)
mode(d::Bernoulli) = ifelse(succprob(d) > 1 / 2, 1, 0)
median(d::Bernoulli) = ifelse(succprob(d) <= 1 / 2, 0, 1)
minimum(d::Bernoulli) = false
maximum(d::Bernoulli) = true
pdf(d::Bernoulli, x::Bool) = x ? succprob(d) : failprob(d)
pdf(d::Bernoulli, x::Real) = x == 0 ? failprob(d) : x == 1 ? succprob(d) : zero(d.p)
logpdf(d::Bernoulli, x::Real) = log(pdf(d, x))
cdf(d::Bernoulli, x::Bool) = x ? one(d.p) : failprob(d)
cdf(d::Bernoulli, x::Real) = x < 0 ? zero(d.p) : x < 1 ? failprob(d) : one(d.p)
rand(rng::AbstractRNG, d::Bernoulli) = rand(rng) <= succprob(d)
quantile(d::Bernoulli{T}, p::Real) where {T} = 0 <= p <= 1 ? (p <= failprob(d) ? zero(T) : one(T)) : T(NaN)
cquantile(d::Bernoulli{T}, p::Real) where {T} = 0 <= p <= 1 ? (p >= succprob(d) ? zero(T) : one(T)) : T(NaN)

# ---------------------------------------------------------------- Binomial

struct Binomial{T<:Real} <: DiscreteUnivariateDistribution
    n::Int64
    p::T
    Binomial{T}(n, p) where {T<:Real} = new{T}(n, p)
end
function Binomial(n::Int64, p::Real; check_args::Bool = true)
    if check_args
        _check_arg(n >= zero(n), "Binomial", n, "n >= zero(n)")
        _check_arg(zero(p) <= p <= one(p), "Binomial", p, "zero(p) <= p <= one(p)")
    end
    Binomial{typeof(p)}(n, p)
end
Binomial(n::Int64, p::Int64; check_args::Bool = true) = Binomial(n, float(p); check_args = check_args)
function Binomial(n::Int64; check_args::Bool = true)
    check_args && _check_arg(n >= zero(n), "Binomial", n, "n >= zero(n)")
    Binomial{Float64}(n, 0.5)
end
Binomial() = Binomial{Float64}(1, 0.5)

params(d::Binomial) = (d.n, d.p)
partype(d::Binomial{T}) where {T} = T
ntrials(d::Binomial) = d.n
succprob(d::Binomial) = d.p
failprob(d::Binomial{T}) where {T} = one(T) - d.p
mean(d::Binomial) = d.n * d.p
var(d::Binomial) = d.n * d.p * (1 - d.p)
mode(d::Binomial) = d.n > 0 ? floor(Int64, (d.n + 1) * d.p) : 0
minimum(d::Binomial) = 0
maximum(d::Binomial) = d.n
function logpdf(d::Binomial, k::Real)
    n, p, k = promote(d.n, d.p, k)
    m = clamp(k, 0, n)
    val = min(0, _betalogpdf(m + 1, n - m + 1, p) - log(n + 1))
    0 <= k <= n && isinteger(k) ? val : oftype(val, -Inf)
end
function cdf(d::Binomial, k::Real)
    n, p = d.n, d.p
    isnan(k) && return float(k)
    res = _betaccdf(max(0, floor(k) + 1), max(0, n - floor(k)), p)
    isone(p) ? oftype(res, k >= n) : res
end
# Inversion by geometric gaps between successes: cost proportional to n min(p, 1 - p).
function quantile(d::Binomial, p::Real)
    z = -erfcinv(2 * clamp(p, 1e-300, 1 - 1e-16)) * _sqrt2
    _discrete_quantile(d, p, d.n * d.p + sqrt(d.n * d.p * (1 - d.p)) * z, d.n)
end
function rand(rng::AbstractRNG, d::Binomial)
    n, p = d.n, Float64(d.p)
    p > 0.5 && return n - rand(rng, Binomial(n, 1.0 - p; check_args = false))
    (p == 0.0 || n == 0) && return 0
    lq = log1p(-p)
    k = 0
    pos = 0
    while true
        pos += Int64(floor(log1p(-rand(rng)) / lq)) + 1
        pos > n && return k
        k += 1
    end
end

# ---------------------------------------------------------------- Poisson

struct Poisson{T<:Real} <: DiscreteUnivariateDistribution
    λ::T
    Poisson{T}(λ) where {T<:Real} = new{T}(λ)
end
function Poisson(λ::Real; check_args::Bool = true)
    check_args && _check_arg(λ >= zero(λ), "Poisson", λ, "λ >= zero(λ)")
    Poisson{typeof(λ)}(λ)
end
Poisson() = Poisson(1.0; check_args = false)

params(d::Poisson) = (d.λ,)
partype(d::Poisson{T}) where {T} = T
rate(d::Poisson) = d.λ
mean(d::Poisson) = d.λ
mode(d::Poisson) = floor(Int64, d.λ)
var(d::Poisson) = d.λ
skewness(d::Poisson) = one(typeof(d.λ)) / sqrt(d.λ)
kurtosis(d::Poisson) = one(typeof(d.λ)) / d.λ
minimum(d::Poisson) = 0
maximum(d::Poisson) = d.λ == zero(d.λ) ? 0 : Inf
function logpdf(d::Poisson, x::Real)
    λ, x = promote(d.λ, x)
    val = xlogy(x, λ) - λ - loggamma(x + 1)
    x >= 0 && isinteger(x) ? val : oftype(val, -Inf)
end
cdf(d::Poisson, x::Real) = _gammaccdf(max(0, floor(x + 1)), 1, d.λ)
function quantile(d::Poisson, p::Real)
    z = -erfcinv(2 * clamp(p, 1e-300, 1 - 1e-16)) * _sqrt2
    _discrete_quantile(d, p, d.λ + sqrt(d.λ) * z, Inf)
end
ccdf(d::Poisson, x::Real) = _gammacdf(max(0, floor(x + 1)), 1, d.λ)
# Inversion for small means; Hörmann's transformed rejection (PTRS) for large ones.
function rand(rng::AbstractRNG, d::Poisson)
    λ = Float64(d.λ)
    if λ < 10.0
        k = 0
        p = exp(-λ)
        s = p
        u = rand(rng)
        while u > s && p > 0.0
            k += 1
            p *= λ / k
            s += p
        end
        return k
    end
    slam = sqrt(λ)
    loglam = log(λ)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2.0)
    while true
        U = rand(rng) - 0.5
        V = rand(rng)
        us = 0.5 - abs(U)
        k = floor((2.0 * a / us + b) * U + λ + 0.43)
        us >= 0.07 && V <= vr && return Int64(k)
        (k < 0.0 || (us < 0.013 && V > us)) && continue
        if log(V) + log(invalpha) - log(a / (us * us) + b) <= -λ + k * loglam - loggamma(k + 1.0)
            return Int64(k)
        end
    end
end

# ---------------------------------------------------------------- Categorical

struct Categorical{P<:Real,Ps<:AbstractVector{P}} <: DiscreteUnivariateDistribution
    support::OneTo{Int64}
    p::Ps
    Categorical{P,Ps}(support::OneTo{Int64}, p::Ps) where {P<:Real,Ps<:AbstractVector{P}} = new{P,Ps}(support, p)
end
# Whether `p` is a probability vector: no negative entry, a sum of one up to rounding.
isprobvec(p::AbstractVector{<:Real}) = all(x -> x >= zero(x), p) && isapprox(sum(p), one(eltype(p)))
function Categorical(p::AbstractVector{P}; check_args::Bool = true) where {P<:Real}
    check_args && (isprobvec(p) || throw(DomainError(p, "Categorical: vector p is not a probability vector")))
    Categorical{P,typeof(p)}(OneTo(length(p)), p)
end
function Categorical(k::Int64; check_args::Bool = true)
    check_args && (k >= 1 || throw(DomainError(k, "Categorical: at least one category is required")))
    Categorical(fill(1 / k, k); check_args = false)
end
Categorical(p1::Real, p2::Real, ps::Real...; check_args::Bool = true) = Categorical(collect(promote(p1, p2, ps...)); check_args = check_args)

params(d::Categorical) = (d.p,)
partype(d::Categorical{P}) where {P} = P
probs(d::Categorical) = d.p
ncategories(d::Categorical) = length(d.p)
support(d::Categorical) = d.support
minimum(d::Categorical) = 1
maximum(d::Categorical) = length(d.p)
function mean(d::Categorical)
    s = zero(eltype(d.p))
    for i in 1:length(d.p)
        s += i * d.p[i]
    end
    s
end
function var(d::Categorical)
    m = mean(d)
    s = zero(eltype(d.p))
    for i in 1:length(d.p)
        s += abs2(i - m) * d.p[i]
    end
    s
end
function mode(d::Categorical)
    _, i = findmax(d.p)
    i
end
insupport(d::Categorical, x::Real) = isinteger(x) && 1 <= x <= length(d.p)
pdf(d::Categorical, x::Real) = insupport(d, x) ? d.p[round(Int64, x)] : zero(eltype(d.p))
logpdf(d::Categorical, x::Real) = log(pdf(d, x))
function cdf(d::Categorical, x::Real)
    isnan(x) && return oftype(zero(eltype(d.p)) / 1, NaN)
    k = floor(x)
    k < 1 && return zero(eltype(d.p)) / 1
    k >= length(d.p) && return one(eltype(d.p)) / 1
    s = zero(eltype(d.p))
    for i in 1:Int64(k)
        s += d.p[i]
    end
    s / 1
end
function quantile(d::Categorical, q::Real)
    0 <= q <= 1 || throw(DomainError(q))
    k = length(d.p)
    i = 1
    cp = d.p[1]
    while cp < q && i < k
        i += 1
        cp += d.p[i]
    end
    d.support[i]
end
function rand(rng::AbstractRNG, d::Categorical)
    u = rand(rng)
    s = 0.0
    n = length(d.p)
    for i in 1:n
        s += d.p[i]
        u < s && return i
    end
    n
end

# ---------------------------------------------------------------- Dirichlet

struct Dirichlet{T<:Real,Ts<:AbstractVector{T},S<:Real} <: ContinuousMultivariateDistribution
    alpha::Ts
    alpha0::T
    lmnB::S
    Dirichlet{T,Ts,S}(alpha::Ts, alpha0::T, lmnB::S) where {T<:Real,Ts<:AbstractVector{T},S<:Real} = new{T,Ts,S}(alpha, alpha0, lmnB)
end
function Dirichlet(alpha::AbstractVector{T}; check_args::Bool = true) where {T<:Real}
    check_args && (all(x -> x > zero(x), alpha) || throw(DomainError(alpha, "Dirichlet: alpha must be a positive vector.")))
    alpha0 = sum(alpha)
    lmnB = sum(loggamma, alpha) - loggamma(alpha0)
    Dirichlet{T,typeof(alpha),typeof(lmnB)}(alpha, alpha0, lmnB)
end
function Dirichlet(k::Int64, a::Real; check_args::Bool = true)
    if check_args
        _check_arg(k > zero(k), "Dirichlet", k, "d > zero(d)")
        _check_arg(a > zero(a), "Dirichlet", a, "alpha > zero(alpha)")
    end
    Dirichlet(fill(a, k); check_args = false)
end

length(d::Dirichlet) = length(d.alpha)
params(d::Dirichlet) = (d.alpha,)
partype(d::Dirichlet{T}) where {T} = T
mean(d::Dirichlet) = d.alpha ./ d.alpha0
function var(d::Dirichlet)
    α0 = d.alpha0
    c = 1 / (α0 * α0 * (α0 + 1))
    [αi * (α0 - αi) * c for αi in d.alpha]
end
function cov(d::Dirichlet)
    α = d.alpha
    α0 = d.alpha0
    c = 1 / (α0 * α0 * (α0 + 1))
    k = length(α)
    [i == j ? α[i] * (α0 - α[i]) * c : -α[i] * α[j] * c for i in 1:k, j in 1:k]
end
function insupport(d::Dirichlet, x::AbstractVector{<:Real})
    length(d) == length(x) && !any(v -> v < zero(v), x) && isapprox(sum(x), 1)
end
function logpdf(d::Dirichlet, x::AbstractVector{<:Real})
    length(x) == length(d) || throw(DimensionMismatch("Inconsistent array dimensions."))
    insupport(d, x) || return xlogy(one(eltype(d.alpha)), zero(eltype(x))) - d.lmnB
    s = zero(xlogy(one(eltype(d.alpha)), one(eltype(x))))
    for i in 1:length(x)
        s += xlogy(d.alpha[i] - 1, x[i])
    end
    s - d.lmnB
end
function rand(rng::AbstractRNG, d::Dirichlet)
    x = [_rand_gamma(rng, Float64(a)) for a in d.alpha]
    x ./ sum(x)
end

# ---------------------------------------------------------------- truncated
#
# `truncated(d, l, u)` (either bound `nothing` for none) wraps any univariate distribution,
# with the package's fields: the log probability below the lower bound, the probabilities
# below and up to the bounds, and the probability of the interval and its log.

extrema(d::UnivariateDistribution) = (minimum(d), maximum(d))
abstract type ValueSupport end
struct Discrete <: ValueSupport end
struct Continuous <: ValueSupport end
_value_support(d::DiscreteUnivariateDistribution) = Discrete()
_value_support(d::DiscreteMultivariateDistribution) = Discrete()
_value_support(d::Distribution) = Continuous()
# P(X < x): for a discrete distribution the mass at x is left out.
_logcdf_noninclusive(d::UnivariateDistribution, x) = logcdf(d, x)
_logcdf_noninclusive(d::DiscreteUnivariateDistribution, x) = logsubexp(logcdf(d, x), logpdf(d, x))

struct Truncated{D<:UnivariateDistribution,S<:ValueSupport,T<:Real,TL,TU} <: UnivariateDistribution
    untruncated::D
    lower::TL
    upper::TU
    loglcdf::T
    lcdf::T
    ucdf::T
    tp::T
    logtp::T
    function Truncated(d::UnivariateDistribution, l, u, loglcdf::T, lcdf::T, ucdf::T, tp::T, logtp::T) where {T<:Real}
        new{typeof(d),typeof(_value_support(d)),T,typeof(l),typeof(u)}(d, l, u, loglcdf, lcdf, ucdf, tp, logtp)
    end
end
truncated(d::UnivariateDistribution, l::Real, u::Real) = truncated(d, promote(l, u)...)
truncated(d::UnivariateDistribution; lower = nothing, upper = nothing) = truncated(d, lower, upper)
function truncated(d::UnivariateDistribution, ::Nothing, u::Real)
    logucdf = _logcdf_bound(d, u)
    ucdf = exp(logucdf)
    Truncated(d, nothing, promote(u, oftype(ucdf, -Inf), zero(ucdf), ucdf, ucdf, logucdf)...)
end
function truncated(d::UnivariateDistribution, l::Real, ::Nothing)
    loglcdf = _logcdf_noninclusive_bound(d, l)
    lcdf = exp(loglcdf)
    logtp = log1mexp(loglcdf)
    tp = exp(logtp)
    l2, loglcdf2, lcdf2, ucdf2, tp2, logtp2 = promote(l, loglcdf, lcdf, one(lcdf), tp, logtp)
    Truncated(d, l2, nothing, loglcdf2, lcdf2, ucdf2, tp2, logtp2)
end
truncated(d::UnivariateDistribution, ::Nothing, ::Nothing) = d
# An infinite bound's log probability is the constant limit (0 or -Inf), so that it carries
# no derivative (a density of zero times an infinite argument would make it NaN).
_logcdf_limit(b) = b > 0 ? zero(float(b)) : oftype(float(b), -Inf)
_logcdf_bound(d, u) = isinf(u) ? _logcdf_limit(u) : logcdf(d, u)
_logcdf_noninclusive_bound(d, l) = isinf(l) ? _logcdf_limit(l) : _logcdf_noninclusive(d, l)
function truncated(d::UnivariateDistribution, l::T, u::T) where {T<:Real}
    l <= u || error("the lower bound must be less or equal than the upper bound")
    loglcdf = _logcdf_noninclusive_bound(d, l)
    lcdf = exp(loglcdf)
    logucdf = _logcdf_bound(d, u)
    ucdf = exp(logucdf)
    logtp = logsubexp(loglcdf, logucdf)
    tp = exp(logtp)
    Truncated(d, promote(l, u, loglcdf, lcdf, ucdf, tp, logtp)...)
end
_tmax(a, b) = b === nothing ? a : max(a, b)
_tmin(a, b) = b === nothing ? a : min(a, b)
truncated(d::Truncated, l::T, u::T) where {T<:Real} = truncated(d.untruncated, _tmax(l, d.lower), _tmin(u, d.upper))
truncated(d::Truncated, ::Nothing, u::Real) = truncated(d.untruncated, d.lower, _tmin(u, d.upper))
truncated(d::Truncated, l::Real, ::Nothing) = truncated(d.untruncated, _tmax(l, d.lower), d.upper)

params(d::Truncated) = (params(d.untruncated)..., d.lower, d.upper)
partype(d::Truncated{D,S,T}) where {D,S,T} = promote_type(partype(d.untruncated), T)
eltype(d::Truncated) = eltype(d.untruncated)
minimum(d::Truncated) = d.lower === nothing ? minimum(d.untruncated) : max(minimum(d.untruncated), d.lower)
maximum(d::Truncated) = d.upper === nothing ? maximum(d.untruncated) : min(maximum(d.untruncated), d.upper)
islowerbounded(d::Truncated) = d.lower === nothing ? isfinite(minimum(d.untruncated)) : isfinite(minimum(d.untruncated)) || isfinite(d.lower)
isupperbounded(d::Truncated) = d.upper === nothing ? isfinite(maximum(d.untruncated)) : isfinite(maximum(d.untruncated)) || isfinite(d.upper)
_in_closed_interval(x::Real, l::Real, u::Real) = l <= x <= u
_in_closed_interval(x::Real, ::Nothing, u::Real) = x <= u
_in_closed_interval(x::Real, l::Real, ::Nothing) = x >= l
insupport(d::Truncated, x::Real) = _in_closed_interval(x, d.lower, d.upper) && insupport(d.untruncated, x)
function quantile(d::Truncated, p::Real)
    x = quantile(d.untruncated, d.lcdf + p * d.tp)
    min_x, max_x = extrema(d)
    clamp(x, oftype(x, min_x), oftype(x, max_x))
end
function pdf(d::Truncated, x::Real)
    result = pdf(d.untruncated, x) / d.tp
    _in_closed_interval(x, d.lower, d.upper) ? result : zero(result)
end
function logpdf(d::Truncated, x::Real)
    result = logpdf(d.untruncated, x) - d.logtp
    _in_closed_interval(x, d.lower, d.upper) ? result : oftype(result, -Inf)
end
function cdf(d::Truncated, x::Real)
    result = clamp((cdf(d.untruncated, x) - d.lcdf) / d.tp, 0, 1)
    if d.lower !== nothing && x < d.lower
        zero(result)
    elseif d.upper !== nothing && x >= d.upper
        one(result)
    else
        result
    end
end
function logcdf(d::Truncated, x::Real)
    result = logsubexp(logcdf(d.untruncated, x), d.loglcdf) - d.logtp
    if d.lower !== nothing && x < d.lower
        oftype(result, -Inf)
    elseif d.upper !== nothing && x >= d.upper
        zero(result)
    else
        result
    end
end
function ccdf(d::Truncated, x::Real)
    result = clamp((d.ucdf - cdf(d.untruncated, x)) / d.tp, 0, 1)
    if d.lower !== nothing && x <= d.lower
        one(result)
    elseif d.upper !== nothing && x > d.upper
        zero(result)
    else
        result
    end
end
function logccdf(d::Truncated, x::Real)
    result = logsubexp(logccdf(d.untruncated, x), log1p(-d.ucdf)) - d.logtp
    if d.lower !== nothing && x <= d.lower
        zero(result)
    elseif d.upper !== nothing && x > d.upper
        oftype(result, -Inf)
    else
        result
    end
end
# Draws by rejection when the interval holds much of the mass, by inversion otherwise.
function rand(rng::AbstractRNG, d::Truncated)
    d0 = d.untruncated
    if d.tp > 0.25
        while true
            r = rand(rng, d0)
            _in_closed_interval(r, d.lower, d.upper) && return r
        end
    end
    quantile(d0, d.lcdf + rand(rng) * d.tp)
end
# A bound in standard units; an infinite one stays the constant it is.
_std_bound(x, μ, σ) = isinf(x) ? oftype((x - μ) / σ, x) : (x - μ) / σ
# The moments of a truncated normal: those of the standard normal on [a, b], computed without
# cancellation in the tails through the scaled complementary error function.
function _tnmom1(a, b)
    mid = float(middle(a, b))
    if !(a <= b)
        return oftype(mid, NaN)
    elseif a == b
        return mid
    elseif abs(a) > abs(b)
        return -_tnmom1(-b, -a)
    elseif isinf(a) && isinf(b)
        return zero(mid)
    end
    a′ = a * _invsqrt2
    b′ = b * _invsqrt2
    if isinf(b)
        # The same values as below with Δ = Inf (expm1(-Δ) = -1, exp(-Δ) = 0), written so
        # that no infinite intermediate reaches the derivatives.
        m = a <= 0 ? -exp(-a^2 / 2) / erf(b′, a′) : -one(mid) / -erfcx(a′)
        return clamp(m / 1.2533141373155003, a, b)
    end
    Δ = (b - a) * mid
    if a <= 0 <= b
        m = expm1(-Δ) * exp(-a^2 / 2) / erf(b′, a′)
    else
        z = exp(-Δ) * erfcx(b′) - erfcx(a′)
        iszero(z) && return mid
        m = expm1(-Δ) / z
    end
    clamp(m / 1.2533141373155003, a, b)
end
function _tnmom2(a, b)
    mid = float(middle(a, b))
    if !(a <= b)
        return oftype(mid, NaN)
    elseif a == b
        return mid^2
    elseif abs(a) > abs(b)
        return _tnmom2(-b, -a)
    elseif isinf(a) && isinf(b)
        return one(mid)
    elseif isinf(b)
        return 1 + a / erfcx(a * _invsqrt2) / 1.2533141373155003
    end
    a′ = a * _invsqrt2
    b′ = b * _invsqrt2
    if a <= 0 <= b
        eb_ea = 1.2533141373155003 * erf(a′, b′)
        fb_fa = eb_ea + a * exp(-a^2 / 2) - b * exp(-b^2 / 2)
        return fb_fa / eb_ea
    end
    exΔ = exp((a - b) * mid)
    ea = 1.2533141373155003 * erfcx(a′)
    eb = 1.2533141373155003 * erfcx(b′)
    fa = ea + a
    fb = eb + b
    (fa - fb * exΔ) / (ea - eb * exΔ)
end
function _tnvar(a, b)
    a == b && return zero(middle(a, b))
    a < b || return oftype(middle(a, b), NaN)
    m1 = _tnmom1(a, b)
    m2 = sqrt(_tnmom2(a, b))
    (m2 - m1) * (m2 + m1)
end
function mode(d::Truncated{D,Continuous,T}) where {D<:Normal,T}
    T(clamp(mean(d.untruncated), extrema(d)...))
end
function mean(d::Truncated{D,Continuous,T}) where {D<:Normal,T}
    d0 = d.untruncated
    μ, σ = mean(d0), std(d0)
    iszero(σ) && return mode(d)
    lower, upper = extrema(d)
    T(μ + _tnmom1(_std_bound(lower, μ, σ), _std_bound(upper, μ, σ)) * σ)
end
function var(d::Truncated{D,Continuous,T}) where {D<:Normal,T}
    d0 = d.untruncated
    μ, σ = mean(d0), std(d0)
    iszero(σ) && return T(σ)
    lower, upper = extrema(d)
    T(_tnvar(_std_bound(lower, μ, σ), _std_bound(upper, μ, σ)) * σ^2)
end

# ---------------------------------------------------------------- MvNormal
#
# The covariance is kept dense with its lower Cholesky factor; `kind` records what it was given
# as (0: a dense matrix, 1: a `Diagonal`, 2: a multiple of `I`), which decides how it prints
# (`FullNormal`, `DiagNormal`, `IsoNormal`) and lets a diagonal covariance skip the solve.

struct MvNormal{T<:Real} <: ContinuousMultivariateDistribution
    μ::Vector{T}
    Σ::Matrix{T}
    L::Matrix{T}
    kind::Int64
    MvNormal{T}(μ::Vector{T}, Σ::Matrix{T}, L::Matrix{T}, kind::Int64) where {T<:Real} = new{T}(μ, Σ, L, kind)
end
function _mvnormal(μ::AbstractVector, Σ::AbstractMatrix, kind::Int64)
    n = length(μ)
    size(Σ, 1) == n && size(Σ, 2) == n ||
        throw(DimensionMismatch("The dimensions of mu and Sigma are inconsistent."))
    T = promote_type(eltype(μ), eltype(Σ), Float64)
    S = Matrix{T}(Σ)
    if kind == 0
        L = Matrix{T}(cholesky(Symmetric(S)).L)
    else
        L = zeros(T, n, n)
        for i in 1:n
            S[i, i] > 0 || throw(PosDefException(i))
            L[i, i] = sqrt(S[i, i])
        end
    end
    MvNormal{T}(Vector{T}(μ), S, L, kind)
end
MvNormal(μ::AbstractVector{<:Real}, Σ::AbstractMatrix{<:Real}) = _mvnormal(μ, Σ, 0)
MvNormal(μ::AbstractVector{<:Real}, Σ::Diagonal) = _mvnormal(μ, Matrix(Σ), 1)
function MvNormal(μ::AbstractVector{<:Real}, Σ::UniformScaling)
    n = length(μ)
    _mvnormal(μ, diagm(fill(Σ.λ * one(eltype(μ)), n)), 2)
end
MvNormal(Σ::AbstractMatrix{<:Real}) = MvNormal(zeros(eltype(Σ), size(Σ, 1)), Σ)

length(d::MvNormal) = length(d.μ)
params(d::MvNormal) = (d.μ, d.Σ)
partype(d::MvNormal{T}) where {T} = T
mean(d::MvNormal) = d.μ
mode(d::MvNormal) = d.μ
cov(d::MvNormal) = d.Σ
var(d::MvNormal) = diag(d.Σ)
invcov(d::MvNormal) = inv(d.Σ)
function logdetcov(d::MvNormal)
    s = zero(eltype(d.L))
    for i in 1:length(d.μ)
        s += log(d.L[i, i])
    end
    2 * s
end
entropy(d::MvNormal) = (length(d) * (_log2π + 1) + logdetcov(d)) / 2
insupport(d::MvNormal, x::AbstractVector) = length(d) == length(x) && all(isfinite, x)
# The squared Mahalanobis distance (x - μ)ᵀ Σ⁻¹ (x - μ), by forward substitution with the factor.
function sqmahal(d::MvNormal, x::AbstractVector)
    n = length(d.μ)
    length(x) == n || throw(DimensionMismatch("Inconsistent array dimensions."))
    L = d.L
    if d.kind != 0
        s = zero(promote_type(eltype(L), eltype(x)))
        for i in 1:n
            s += abs2((x[i] - d.μ[i]) / L[i, i])
        end
        return s
    end
    z = [x[i] - d.μ[i] for i in 1:n]
    for i in 1:n
        zi = z[i]
        for j in 1:(i - 1)
            zi -= L[i, j] * z[j]
        end
        z[i] = zi / L[i, i]
    end
    sum(abs2, z)
end
logpdf(d::MvNormal, x::AbstractVector{<:Real}) = -(length(d) * _log2π + logdetcov(d)) / 2 - sqmahal(d, x) / 2
rand(rng::AbstractRNG, d::MvNormal) = d.μ + d.L * randn(rng, length(d.μ))

# ---------------------------------------------------------------- MixtureModel
#
# A finite mixture: components of one variate form with a `Categorical` prior over them. The
# densities sum over the components of positive prior weight (the log density by logsumexp).

abstract type VariateForm end
struct Univariate <: VariateForm end
struct Multivariate <: VariateForm end
# The variate form and value support of the components of an element type (known from the
# type itself, also for an abstract element type of mixed families).
_variate_form(::Type{C}) where {C<:UnivariateDistribution} = Univariate
_variate_form(::Type{C}) where {C<:MultivariateDistribution} = Multivariate
_value_support(::Type{C}) where {C<:DiscreteUnivariateDistribution} = Discrete
_value_support(::Type{C}) where {C<:DiscreteMultivariateDistribution} = Discrete
_value_support(::Type{C}) where {C<:Distribution} = Continuous

struct MixtureModel{VF<:VariateForm,VS<:ValueSupport,C,CT<:Categorical} <: Distribution
    components::Vector{C}
    prior::CT
    function MixtureModel(cs::Vector{C}, pri::CT) where {C,CT<:Categorical}
        length(cs) == ncategories(pri) || error("The number of components does not match the length of prior.")
        # (Components in a `Vector{Any}` are asked one by one.)
        E = C === Any ? typeof(cs[1]) : C
        new{_variate_form(E),_value_support(E),C,CT}(cs, pri)
    end
end
MixtureModel(components::Vector, p::AbstractVector{<:Real}) = MixtureModel(components, Categorical(p))
MixtureModel(components::Vector) = MixtureModel(components, Categorical(length(components)))
_construct_component(::Type{C}, arg) where {C} = C(arg)
_construct_component(::Type{C}, args::Tuple) where {C} = C(args...)
function MixtureModel(::Type{C}, params::AbstractArray, p::Vector{T}) where {C,T<:Real}
    MixtureModel(C[_construct_component(C, a) for a in params], p)
end
MixtureModel(::Type{C}, params::AbstractArray) where {C} = MixtureModel(C, params, fill(1 / length(params), length(params)))

component_type(d::MixtureModel{VF,VS,C}) where {VF,VS,C} = C
ncomponents(d::MixtureModel) = length(d.components)
components(d::MixtureModel) = d.components
component(d::MixtureModel, k::Int64) = d.components[k]
probs(d::MixtureModel) = probs(d.prior)
params(d::MixtureModel) = ([params(c) for c in d.components], params(d.prior)[1])
length(d::MixtureModel{Multivariate,S,C,P}) where {S,C,P} = length(d.components[1])
length(d::MixtureModel{Univariate,S,C,P}) where {S,C,P} = 1
minimum(d::MixtureModel) = minimum([minimum(c) for c in d.components])
maximum(d::MixtureModel) = maximum([maximum(c) for c in d.components])
function mean(d::MixtureModel{Univariate,S,C,P}) where {S,C,P}
    p = probs(d)
    sum(pi * mean(component(d, i)) for (i, pi) in enumerate(p) if !iszero(pi))
end
function mean(d::MixtureModel{Multivariate,S,C,P}) where {S,C,P}
    p = probs(d)
    m = zeros(length(d))
    for i in 1:ncomponents(d)
        if p[i] > 0.0
            m = m .+ p[i] .* mean(component(d, i))
        end
    end
    m
end
function var(d::MixtureModel{Univariate,S,C,P}) where {S,C,P}
    K = ncomponents(d)
    p = probs(d)
    means = zeros(K)
    m = 0.0
    v = 0.0
    for i in 1:K
        pi = p[i]
        if pi > 0.0
            ci = component(d, i)
            mi = mean(ci)
            means[i] = mi
            m += pi * mi
            v += pi * var(ci)
        end
    end
    for i in 1:K
        pi = p[i]
        if pi > 0.0
            v += pi * abs2(means[i] - m)
        end
    end
    v
end
std(d::MixtureModel{Univariate,S,C,P}) where {S,C,P} = sqrt(var(d))
function cov(d::MixtureModel{Multivariate,S,C,P}) where {S,C,P}
    p = probs(d)
    m = mean(d)
    V = zeros(length(d), length(d))
    for i in 1:ncomponents(d)
        if p[i] > 0.0
            c = component(d, i)
            md = mean(c) .- m
            V = V .+ p[i] .* (cov(c) .+ md * md')
        end
    end
    V
end
var(d::MixtureModel{Multivariate,S,C,P}) where {S,C,P} = diag(cov(d))
function insupport(d::MixtureModel, x)
    p = probs(d)
    any(insupport(component(d, i), x) for (i, pi) in enumerate(p) if !iszero(pi))
end
function cdf(d::MixtureModel{Univariate,S,C,P}, x::Real) where {S,C,P}
    p = probs(d)
    sum(pi * cdf(component(d, i), x) for (i, pi) in enumerate(p) if !iszero(pi))
end
function _mixpdf1(d::MixtureModel, x)
    p = probs(d)
    sum(pi * pdf(component(d, i), x) for (i, pi) in enumerate(p) if !iszero(pi))
end
function _mixlogpdf1(d::MixtureModel, x)
    p = probs(d)
    logsumexp(log(pi) + logpdf(component(d, i), x) for (i, pi) in enumerate(p) if !iszero(pi))
end
pdf(d::MixtureModel{Univariate,S,C,P}, x::Real) where {S,C,P} = _mixpdf1(d, x)
logpdf(d::MixtureModel{Univariate,S,C,P}, x::Real) where {S,C,P} = _mixlogpdf1(d, x)
pdf(d::MixtureModel{Multivariate,S,C,P}, x::AbstractVector{<:Real}) where {S,C,P} = _mixpdf1(d, x)
logpdf(d::MixtureModel{Multivariate,S,C,P}, x::AbstractVector{<:Real}) where {S,C,P} = _mixlogpdf1(d, x)
loglikelihood(d::MixtureModel{Univariate,S,C,P}, x::Real) where {S,C,P} = logpdf(d, x)
function loglikelihood(d::MixtureModel{Univariate,S,C,P}, x::AbstractArray) where {S,C,P}
    s = zero(logpdf(d, first(x)))
    for xi in x
        s += logpdf(d, xi)
    end
    s
end
loglikelihood(d::MixtureModel{Multivariate,S,C,P}, x::AbstractVector) where {S,C,P} = logpdf(d, x)
loglikelihood(d::MixtureModel{Multivariate,S,C,P}, x::AbstractMatrix) where {S,C,P} = sum(logpdf(d, x[:, j]) for j in 1:size(x, 2))
# Draws a component by the prior, then a value from it.
rand(rng::AbstractRNG, d::MixtureModel) = rand(rng, component(d, rand(rng, d.prior)))
rand(rng::AbstractRNG, d::MixtureModel{Univariate,S,C,P}, n::Int64) where {S,C,P} = [rand(rng, d) for _ in 1:n]
function rand(rng::AbstractRNG, d::MixtureModel{Multivariate,S,C,P}, n::Int64) where {S,C,P}
    X = Matrix{Float64}(undef, length(d), n)
    for j in 1:n
        X[:, j] = rand(rng, d)
    end
    X
end

# ---------------------------------------------------------------- fitting
#
# Maximum-likelihood fits from data, by the package's sufficient statistics and updates:
# `fit(D, x)` is `fit_mle(D, x)`.

fit(::Type{D}, x::AbstractArray) where {D<:Distribution} = fit_mle(D, x)
function fit_mle(::Type{Normal}, x::AbstractArray{T}) where {T<:Real}
    n = length(x)
    s = zero(T) + zero(T)
    for i in eachindex(x)
        s += x[i]
    end
    m = s / n
    s2 = zero(m)
    for i in eachindex(x)
        s2 += abs2(x[i] - m)
    end
    Normal(m, sqrt(s2 / n))
end
function fit_mle(::Type{LogNormal}, x::AbstractArray{T}) where {T<:Real}
    lx = log.(x)
    μ = mean(lx)
    LogNormal(μ, std(lx; mean = μ))
end
fit_mle(::Type{Exponential}, x::AbstractArray{T}) where {T<:Real} = Exponential(sum(x) / length(x))
fit_mle(::Type{Poisson}, x::AbstractArray{T}) where {T<:Integer} = Poisson(sum(x) / length(x))
fit_mle(::Type{Uniform}, x::AbstractArray{T}) where {T<:Real} = Uniform(minimum(x), maximum(x))
function fit_mle(::Type{Bernoulli}, x::AbstractArray{T}) where {T<:Real}
    c1 = count(v -> v == 1, x)
    c0 = count(v -> v == 0, x)
    c0 + c1 == length(x) || throw(DomainError(x, "Bernoulli data must be 0 or 1"))
    Bernoulli(c1 / (c0 + c1))
end
# Weighted fits (`fit(D, x, w)`, weights `w::AbstractArray{Float64}`): the same statistics with
# each observation counted `w[i]` times.
fit(::Type{D}, x::AbstractArray, w::AbstractArray) where {D<:Distribution} = fit_mle(D, x, w)
function _fit_weights(x::AbstractArray, w::AbstractArray, message::String)
    length(x) == length(w) || throw(DimensionMismatch(message))
    nothing
end
function fit_mle(::Type{Normal}, x::AbstractArray{T}, w::AbstractArray{Float64}) where {T<:Real}
    tw = 0.0
    s = 0.0 * zero(T)
    for i in eachindex(x, w)
        s += w[i] * x[i]
        tw += w[i]
    end
    m = s / tw
    s2 = zero(m)
    for i in eachindex(x, w)
        s2 += w[i] * abs2(x[i] - m)
    end
    Normal(m, sqrt(s2 / tw))
end
function fit_mle(::Type{Exponential}, x::AbstractArray{T}, w::AbstractArray{Float64}) where {T<:Real}
    Exponential(dot(x, w) / sum(w))
end
function fit_mle(::Type{Poisson}, x::AbstractArray{T}, w::AbstractArray{Float64}) where {T<:Integer}
    _fit_weights(x, w, "Inconsistent array lengths.")
    sx = 0.0
    tw = 0.0
    for i in eachindex(x, w)
        sx += x[i] * w[i]
        tw += w[i]
    end
    Poisson(sx / tw)
end
function fit_mle(::Type{Bernoulli}, x::AbstractArray{<:Integer}, w::AbstractArray{<:Real})
    _fit_weights(x, w, "inconsistent argument dimensions")
    z = zero(eltype(w))
    c0 = z + z
    c1 = z + z
    for (xi, wi) in zip(x, w)
        if xi == 0
            c0 += wi
        elseif xi == 1
            c1 += wi
        else
            throw(DomainError(xi, "samples must be 0 or 1"))
        end
    end
    Bernoulli(c1 / (c0 + c1))
end
function fit_mle(::Type{Gamma}, x::AbstractArray{T}, w::AbstractArray{Float64}; alpha0::Float64 = NaN, maxiter::Int64 = 1000, tol::Float64 = 1e-16) where {T<:Real}
    _fit_weights(x, w, "Inconsistent argument dimensions.")
    sx = zero(T)
    slogx = zero(T)
    tw = zero(T)
    for i in eachindex(x, w)
        sx += w[i] * x[i]
        slogx += w[i] * log(x[i])
        tw += w[i]
    end
    _gamma_mle(sx / tw, slogx / tw, alpha0, maxiter, tol)
end
# Category frequencies: `fit_mle(Categorical, x)` over 1:maximum(x), or over 1:k.
function _categorical_counts(k::Integer, x::AbstractArray{<:Integer}, w)
    h = zeros(k)
    for i in eachindex(x)
        h[x[i]] += w === nothing ? 1.0 : w[i]
    end
    h ./ sum(h)
end
fit_mle(::Type{Categorical}, k::Integer, x::AbstractArray{T}) where {T<:Integer} = Categorical(_categorical_counts(k, x, nothing); check_args = false)
function fit_mle(::Type{Categorical}, k::Integer, x::AbstractArray{T}, w::AbstractArray{Float64}) where {T<:Integer}
    _fit_weights(x, w, "Inconsistent array lengths.")
    Categorical(_categorical_counts(k, x, w); check_args = false)
end
fit_mle(::Type{Categorical}, x::AbstractArray{T}) where {T<:Integer} = fit_mle(Categorical, maximum(x), x)
fit_mle(::Type{Categorical}, x::AbstractArray{T}, w::AbstractArray{Float64}) where {T<:Integer} = fit_mle(Categorical, maximum(x), x, w)
fit(::Type{Categorical}, k::Integer, x::AbstractArray) = fit_mle(Categorical, k, x)
# `fit(Beta, x)` matches the mean and variance (the package's choice); `fit_mle(Beta, x)` runs
# Newton's method on the likelihood equations from there.
function fit(::Type{Beta}, x::AbstractArray{T}) where {T<:Real}
    x_bar = mean(x)
    v_bar = varm(x, x_bar)
    temp = ((x_bar * (one(T) - x_bar)) / v_bar) - one(T)
    Beta(x_bar * temp, (one(T) - x_bar) * temp)
end
function fit_mle(::Type{Beta}, x::AbstractArray{T}; maxiter::Int64 = 1000, tol::Float64 = 1e-14) where {T<:Real}
    α, β = params(fit(Beta, x))
    g1 = mean(log.(x))
    g2 = mean(log.(one(T) .- x))
    converged = false
    t = 0
    while !converged && t < maxiter
        t += 1
        d = digamma(α + β)
        h = trigamma(α + β)
        r1 = g1 + d - digamma(α)
        r2 = d + g2 - digamma(β)
        h11 = h - trigamma(α)
        h22 = h - trigamma(β)
        det = h11 * h22 - h * h
        Δα = (h22 * r1 - h * r2) / det
        Δβ = (h11 * r2 - h * r1) / det
        α -= Δα
        β -= Δβ
        converged = Δα * Δα + Δβ * Δβ < 2 * tol
    end
    Beta(α, β)
end
# A multivariate normal from the columns of `x`: their mean and their covariance normalised by
# the number of columns (or the weights' sum).
function fit_mle(::Type{MvNormal}, x::AbstractMatrix{Float64})
    n = size(x, 2)
    μ = vec(sum(x; dims = 2)) ./ n
    z = x .- μ
    MvNormal(μ, Symmetric((z * z') ./ n))
end
function fit_mle(::Type{MvNormal}, x::AbstractMatrix{Float64}, w::AbstractVector)
    size(x, 2) == length(w) || throw(DimensionMismatch("Inconsistent argument dimensions."))
    tw = sum(w)
    μ = (x * w) ./ tw
    z = x .- μ
    MvNormal(μ, Symmetric(((z .* w') * z') ./ tw))
end
# Minka's fixed-point iteration for the shape, from (log mean - mean log) / 2.
function _gamma_mle_update(logmx::Float64, mlogx::Float64, a::Float64)
    ia = 1 / a
    z = ia + (mlogx - logmx + log(a) - digamma(a)) / (abs2(a) * (ia - trigamma(a)))
    1 / z
end
function fit_mle(::Type{Gamma}, x::AbstractArray{T}; alpha0::Float64 = NaN, maxiter::Int64 = 1000, tol::Float64 = 1e-16) where {T<:Real}
    sx = zero(T)
    slogx = zero(T)
    for xi in x
        sx += xi
        slogx += log(xi)
    end
    _gamma_mle(sx / length(x), slogx / length(x), alpha0, maxiter, tol)
end
function _gamma_mle(mx, mlogx, alpha0::Float64, maxiter::Int64, tol::Float64)
    logmx = log(mx)
    a = isnan(alpha0) ? (logmx - mlogx) / 2 : alpha0
    converged = false
    t = 0
    while !converged && t < maxiter
        t += 1
        a_old = a
        a = _gamma_mle_update(logmx, mlogx, a)
        converged = abs(a - a_old) <= tol
    end
    Gamma(a, mx / a)
end
