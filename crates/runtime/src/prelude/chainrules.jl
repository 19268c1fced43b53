# ChainRulesCore's vocabulary for ChainRules-style rules (`rrule`, `frule`, `NoTangent`,
# `ZeroTangent`, `@thunk`, `unthunk`, `Tangent`, `NotImplemented`, `ProjectTo`), and the
# adapters through which `@from_rrule` and `@from_chainrules` run such rules as Mooncake
# rules, converting tangents between the two conventions.
#
# ChainRulesCore's `NoTangent` and `Tangent` are `_CRC_NoTangent` and `_CRC_Tangent` here,
# apart from Mooncake's: `using ChainRulesCore` (or importing the names from it) makes a
# program's `NoTangent` and `Tangent` mean them, and `ChainRulesCore.NoTangent` always does.

abstract type AbstractTangent end
abstract type AbstractZero <: AbstractTangent end
struct _CRC_NoTangent <: AbstractZero end
struct ZeroTangent <: AbstractZero end

# A tangent computed when it is asked for (`@thunk expr` is `Thunk(() -> expr)`).
abstract type AbstractThunk <: AbstractTangent end
struct Thunk{F} <: AbstractThunk
    f::F
end
unthunk(x) = x
unthunk(t::Thunk) = unthunk(t.f())

# A derivative the rule's author did not implement.
struct NotImplemented <: AbstractTangent
    info::String
end
NotImplemented() = NotImplemented("")

# The structural tangent of a tuple (`Tangent{P}(dx1, dx2)`), indexed and iterated as the
# tuple of its parts, or of a struct (`Tangent{P}(; a = da, b = db)`; a field left out has a
# zero tangent).
struct _CRC_Tangent{P, T} <: AbstractTangent
    backing::T
end
_crc_tangent(::Type{P}, t::Union{Tuple, NamedTuple}) where {P} = _CRC_Tangent{P, typeof(t)}(t)
# (`Tangent{P}(; a = da)` is read as `_crc_tangent(P, (a = da,))`.)
_CRC_Tangent{P}(parts...) where {P} = _crc_tangent(P, parts)
backing(t::_CRC_Tangent) = t.backing
getindex(t::_CRC_Tangent, i::Int) = unthunk(t.backing[i])
length(t::_CRC_Tangent) = length(t.backing)
iterate(t::_CRC_Tangent) = iterate(t, 1)
iterate(t::_CRC_Tangent, i::Int) = i > length(t.backing) ? nothing : (unthunk(t.backing[i]), i + 1)

# Zero tangents are additive identities and multiplicative zeros.
+(a::AbstractZero, b::AbstractZero) = a
+(a::AbstractZero, b::Number) = b
+(a::Number, b::AbstractZero) = a
+(a::AbstractZero, b::AbstractArray) = b
+(a::AbstractArray, b::AbstractZero) = a
-(a::AbstractZero) = a
-(a::AbstractZero, b::Number) = -b
-(a::Number, b::AbstractZero) = a
*(a::AbstractZero, b::Number) = a
*(a::Number, b::AbstractZero) = b
*(a::AbstractZero, b::AbstractArray) = a
*(a::AbstractArray, b::AbstractZero) = b
iszero(::AbstractZero) = true
zero(::AbstractZero) = ZeroTangent()

# `ProjectTo(x)`: a function taking a tangent to the tangent space of `x` (a float's type, an
# array's element type and shape).
struct ProjectTo{P, S}
    shape::S
end
ProjectTo(x::T) where {T<:Union{Float64, Float32}} = ProjectTo{T, Nothing}(nothing)
ProjectTo(x::Array{T, N}) where {T<:Union{Float64, Float32}, N} =
    ProjectTo{Array{T, N}, NTuple{N, Int}}(size(x))
ProjectTo(x::Union{Int, Bool, Nothing, String, Symbol}) = ProjectTo{_CRC_NoTangent, Nothing}(nothing)
(p::ProjectTo{T})(dx::Real) where {T<:Union{Float64, Float32}} = convert(T, dx)
(p::ProjectTo{T})(dx::Complex) where {T<:Union{Float64, Float32}} = convert(T, real(dx))
(p::ProjectTo{Array{T, N}})(dx::Array{T, N}) where {T, N} = dx
function (p::ProjectTo{Array{T, N}})(dx::AbstractArray) where {T, N}
    length(dx) == prod(p.shape) || throw(DimensionMismatch("the tangent has $(length(dx)) elements; the array it projects onto has $(prod(p.shape))"))
    y = Array{T, N}(undef, p.shape)
    copyto!(y, dx)
    return y
end
(p::ProjectTo{_CRC_NoTangent})(dx) = _CRC_NoTangent()
(p::ProjectTo)(dx::AbstractZero) = dx
(p::ProjectTo)(dx::Thunk) = Thunk(() -> p(unthunk(dx)))

# ChainRules' rules: the program adds methods (`function ChainRulesCore.rrule(::typeof(f),
# x) ... end`). `rrule` returns `(y, pullback)` where the pullback returns one tangent for the
# function and one per argument; `frule((df, dx...), f, x...)` returns `(y, dy)`.
function rrule end
function frule end

# The reverse-mode rule `@from_rrule`/`@from_chainrules` declare: the program's `rrule`,
# with the output's Mooncake tangent given to its pullback in ChainRules' form, and what the
# pullback returns added into the arguments' fdata (arrays) or returned as their rdata
# (floats).
function _cr_rrule(fargs::CoDual...)
    y, pb = rrule(map(primal, fargs)...)
    yf = _zero_fdata(y)
    return CoDual(y, yf), _CRPullback(pb, fargs, yf)
end

# The same for a call with keyword arguments (`Core.kwcall(kw, f, x...)`). As in Mooncake,
# declaring such a rule (`has_kwargs = true`) states that the derivative with respect to the
# keywords is zero: their rdata is zero.
function _cr_rrule_kw(kwc::CoDual, kw::CoDual, fargs::CoDual...)
    y, pb = rrule(map(primal, fargs)...; primal(kw)...)
    yf = _zero_fdata(y)
    return CoDual(y, yf), _CRKwPullback(_CRPullback(pb, fargs, yf), zero_rdata(primal(kw)))
end

# A tangent that does not fit its argument (for the message).
struct _CRMismatch
    f::String
    r::String
    t::String
end

struct _CRPullback{P, A, F}
    pb::P
    args::A
    yf::F
end

function (p::_CRPullback)(dy)
    d = p.pb(_cr_out_tangent(p.yf, dy))
    d isa Tuple || _cr_bad(p.args, "the pullback must return a tuple of tangents (one for the function and one per argument), not a value of type $(typeof(d))")
    length(d) == length(p.args) || _cr_bad(p.args, "the pullback returned $(length(d)) tangent$(length(d) == 1 ? "" : "s"); it must return $(length(p.args)) (one for the function and one per argument)")
    return _cr_rdata(p.args, p.args, d, 0)
end

struct _CRKwPullback{P, K}
    pb::P
    kw::K
end
(p::_CRKwPullback)(dy) = (NoRData(), p.kw, p.pb(dy)...)

# The rdata of each argument (the `k`th onwards of `all`).
_cr_rdata(all, args::Tuple{}, d::Tuple, k) = ()
_cr_rdata(all, args::Tuple, d::Tuple, k) =
    (_cr_checked(all, k, _cr_increment!(tangent(args[1]), zero_rdata(primal(args[1])), d[1])),
     _cr_rdata(all, _tuple_tail(args...), _tuple_tail(d...), k + 1)...)
_cr_checked(all, k, r) = r
_cr_checked(all, k, r::_CRMismatch) = _cr_bad(all, "the pullback returned a tangent of type $(r.t) for $(k == 0 ? "the function" : "argument $k"), whose fdata is of type $(r.f) and rdata of type $(r.r); it must be the argument's tangent (a float of the same type for a float, an array of the same element type for an array, NoTangent() for no derivative)")

_cr_bad(args, msg) = _bad_rule_of(string("ChainRulesCore.rrule for ", _call_string(args)), msg)

# The output's tangent, from its fdata and rdata, in ChainRules' form.
_cr_out_tangent(f::NoFData, r::Union{Float64, Float32}) = r
_cr_out_tangent(f::Array, r::NoRData) = f
_cr_out_tangent(f::NoFData, r::NoRData) = _CRC_NoTangent()
_cr_out_tangent(f::Tuple, r::Tuple) = _crc_tangent(Any, map(_cr_out_tangent, f, r))
_cr_out_tangent(f::NoFData, r::Tuple) = _crc_tangent(Any, map(x -> _cr_out_tangent(NoFData(), x), r))
_cr_out_tangent(f::Tuple, r::NoRData) = _crc_tangent(Any, map(x -> _cr_out_tangent(x, NoRData()), f))
_cr_out_tangent(f, r) = throw(ArgumentError("a rule from ChainRules cannot take the tangent of an output with fdata of type $(typeof(f)) and rdata of type $(typeof(r)); write an rrule!! for this function instead"))

# A ChainRules tangent `t` of an argument with fdata `f` and zero rdata `r`: added into `f`
# in place (arrays), or returned as rdata (floats).
_cr_increment!(f::NoFData, r::T, t::T) where {T<:Union{Float64, Float32}} = r + t
function _cr_increment!(f::Array{T}, r::NoRData, t::Array{T}) where {T<:Union{Float64, Float32}}
    increment!!(f, t)
    return NoRData()
end
_cr_increment!(f, r, t::AbstractZero) = r
_cr_increment!(f, r, t::Thunk) = _cr_increment!(f, r, unthunk(t))
_cr_increment!(f, r, t::_CRC_Tangent{P, T}) where {P, T<:Tuple} = _cr_increment!(f, r, t.backing)
# A struct's tangent by field: each field's part of the fdata and rdata incremented as that
# field's tangent; the struct's rdata rebuilt from its fields'.
function _cr_increment!(f, r, t::_CRC_Tangent{P, T}) where {P, T<:NamedTuple}
    names = fieldnames(P)
    all(n -> n in names, keys(t.backing)) || return _CRMismatch(string(typeof(f)), string(typeof(r)), string(typeof(t)))
    fs = _field_parts(f, length(names), NoFData())
    rs = _field_parts(r, length(names), NoRData())
    ts = map(n -> haskey(t.backing, n) ? t.backing[n] : ZeroTangent(), names)
    new = map(_cr_increment!, fs, rs, ts)
    for x in new
        x isa _CRMismatch && return x
    end
    r isa NoRData && return r
    return Core.new(typeof(r), new...)
end
_field_parts(x::Union{NoFData, NoRData}, n, zero) = ntuple(_ -> zero, n)
_field_parts(x, n, zero) = Tuple(x.data)
_cr_increment!(f::NoFData, r::Tuple, t::Tuple) = map((ri, ti) -> _cr_increment!(NoFData(), ri, ti), r, t)
_cr_increment!(f::Tuple, r::NoRData, t::Tuple) = (map((fi, ti) -> _cr_increment!(fi, NoRData(), ti), f, t); NoRData())
_cr_increment!(f::Tuple, r::Tuple, t::Tuple) = map(_cr_increment!, f, r, t)
_cr_increment!(f, r::T, t::NotImplemented) where {T<:Union{Float64, Float32}} = T(NaN)
_cr_increment!(f::NoFData, r::NoRData, t::NotImplemented) = r
_cr_increment!(f, r, t) = _CRMismatch(string(typeof(f)), string(typeof(r)), string(typeof(t)))


# The forward-mode rule `@from_chainrules` declares: the program's `frule`.
function _cr_frule(fargs::Dual...)
    y, dy = frule(map(a -> _to_cr_tangent(tangent(a)), fargs), map(primal, fargs)...)
    return Dual(y, _mooncake_tangent(y, dy))
end
function _cr_frule_kw(kwc::Dual, kw::Dual, fargs::Dual...)
    y, dy = frule(map(a -> _to_cr_tangent(tangent(a)), fargs), map(primal, fargs)...; primal(kw)...)
    return Dual(y, _mooncake_tangent(y, dy))
end

# A Mooncake tangent in ChainRules' form, and back.
_to_cr_tangent(t::Union{Float64, Float32}) = t
_to_cr_tangent(t::Array{T}) where {T<:Union{Float64, Float32}} = t
_to_cr_tangent(t::NoTangent) = _CRC_NoTangent()
_to_cr_tangent(t::Tuple) = _crc_tangent(Any, map(_to_cr_tangent, t))
_to_cr_tangent(t) = throw(ArgumentError("a rule from ChainRules cannot take a tangent of type $(typeof(t)); write an frule!! for this function instead"))

_mooncake_tangent(p, t::_CRC_NoTangent) = zero_tangent(p)
_mooncake_tangent(p, t::ZeroTangent) = zero_tangent(p)
_mooncake_tangent(p, t::Thunk) = _mooncake_tangent(p, unthunk(t))
_mooncake_tangent(p::T, t::T) where {T<:Union{Float64, Float32}} = t
_mooncake_tangent(p::Array{T, N}, t::Array{T, N}) where {T<:Union{Float64, Float32}, N} = t
_mooncake_tangent(p::Union{Float64, Float32}, t::NotImplemented) = oftype(p, NaN)
_mooncake_tangent(p::Tuple, t::Tuple) = map(_mooncake_tangent, p, t)
_mooncake_tangent(p::Tuple, t::_CRC_Tangent) = map(_mooncake_tangent, p, t.backing)
_mooncake_tangent(p, t) = throw(ArgumentError("a ChainRules frule returned a tangent of type $(typeof(t)) for an output of type $(typeof(p))"))

# `@scalar_rule f(x, ...) (∂x, ...)`: the pullback of a scalar function given its partial
# derivatives at the point, and the tangent of its output for the arguments' tangents `Δs`
# (the function's first).
struct _ScalarPullback{P}
    partials::P
end
(pb::_ScalarPullback)(ΔΩ) = (_CRC_NoTangent(), map(p -> ΔΩ * conj(p), pb.partials)...)
_scalar_pushforward(ps::Tuple, Δs::Tuple) = _sum_products(ps, _tuple_tail(Δs...))
_sum_products(ps::Tuple{Any}, Δs::Tuple{Any}) = ps[1] * Δs[1]
_sum_products(ps::Tuple, Δs::Tuple) =
    ps[1] * Δs[1] + _sum_products(_tuple_tail(ps...), _tuple_tail(Δs...))
