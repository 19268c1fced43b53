# Mooncake's interface for rules written in the language: the tangent vocabulary (`CoDual`,
# `Dual`, `NoFData`, `NoRData`, `zero_fcodual`, ...), the contexts and modes `@is_primitive`
# names, and the adapters through which derived code runs a user's `rrule!!` or `frule!!`.
#
# The fdata/rdata split is the one derived code uses inside: a float's fdata is `NoFData()`
# and its rdata the float; an array's fdata is its tangent array and its rdata `NoRData()`.

# Contexts: a `MinimalCtx` primitive is one in `DefaultCtx` too.
struct MinimalCtx end
struct DefaultCtx end

# Modes of AD (`@is_primitive DefaultCtx ReverseMode sig`).
abstract type _Mooncake_Mode end
struct ForwardMode <: _Mooncake_Mode end
struct ReverseMode <: _Mooncake_Mode end

NoTangent() = Core.new(NoTangent)
NoFData() = Core.new(NoFData)
NoRData() = Core.new(NoRData)

# A primal with its fdata (reverse mode's forwards pass).
struct CoDual{Tx, Tdx}
    x::Tx
    dx::Tdx
end

# A primal with its tangent (forward mode).
struct Dual{P, T}
    primal::P
    tangent::T
end

# Mooncake's `Tangent`, `MutableTangent`, `FData` and `RData` of a named tuple, as a rule
# writes them for a struct (`RData((a = da, b = NoRData()))`). Derived code keeps a struct's
# tangent by its primal type (printed the same way); the adapters below take these in its
# place, field by field.
struct _Mooncake_Tangent{T<:NamedTuple}
    fields::T
end
mutable struct _Mooncake_MutableTangent{T<:NamedTuple}
    fields::T
end
struct _Mooncake_FData{T<:NamedTuple}
    data::T
end
struct _Mooncake_RData{T<:NamedTuple}
    data::T
end

# A rule's tangent, fdata or rdata `x` as a value of type `T`, the type derived code keeps
# (values that do not fit are left for the caller's check to report).
_as_data(::Type{T}, x) where {T} = x
_as_data(::Type{T}, x::Union{_Mooncake_Tangent, _Mooncake_MutableTangent}) where {T} =
    _fields_as(T, x.fields)
_as_data(::Type{T}, x::Union{_Mooncake_FData, _Mooncake_RData}) where {T} = _fields_as(T, x.data)
_as_data(::Type{T}, x::Tuple) where {T<:Tuple} =
    x isa T ? x : length(x) == length(fieldtypes(T)) ? map(_as_data, fieldtypes(T), x) : x
function _fields_as(::Type{T}, nt::NamedTuple) where {T}
    _has_named_fields(T) && fieldnames(T) == keys(nt) || return nt
    return Core.new(T, map(_as_data, fieldtypes(T), Tuple(nt))...)
end
_has_named_fields(::Type{T}) where {T} = true
_has_named_fields(::Type{T}) where {T<:Union{Number, Array, Tuple, NamedTuple, NoTangent, NoFData, NoRData}} = false

primal(x::CoDual) = x.x
tangent(x::CoDual) = x.dx
primal(x::Dual) = x.primal
tangent(x::Dual) = x.tangent

# `tangent_type(P)`: the type of the tangents of a primal of type `P`; `fdata_type(T)` and
# `rdata_type(T)`: the types of the forward and reverse data of a tangent of type `T`.
tangent_type(::Type{P}) where {P} = Core.tangent_type(P)
fdata_type(::Type{T}) where {T} = Core.fdata_type(T)
rdata_type(::Type{T}) where {T} = Core.rdata_type(T)

# The zero tangent of `x` (of type `tangent_type(typeof(x))`); numbers and float arrays without
# the AD runtime.
zero_tangent(x) = Core.zero_tangent(x)::Core.tangent_type(typeof(x))
zero_tangent(x::Union{Float64, Float32}) = zero(x)
zero_tangent(x::Union{Int, Bool, Nothing, String}) = NoTangent()
zero_tangent(x::Array{T}) where {T<:Union{Float64, Float32}} = zero(x)

# A tangent's forward data (what travels with the primal on the forwards pass) and reverse
# data (what pullbacks return).
fdata(t::Union{Float64, Float32}) = NoFData()
fdata(t::Union{NoTangent, NoFData}) = NoFData()
fdata(t::Array) = t
fdata(t::Tuple) = _collapse_fdata(map(fdata, t))
_collapse_fdata(t::Tuple) = _all_of(NoFData, t) ? NoFData() : t
_all_of(::Type{T}, t::Tuple{}) where {T} = true
_all_of(::Type{T}, t::Tuple) where {T} = t[1] isa T && _all_of(T, _tuple_tail(t...))
rdata(t::Union{Float64, Float32}) = t
rdata(t::Union{NoTangent, NoRData}) = NoRData()
rdata(t::Array) = NoRData()
rdata(t::Tuple) = _collapse_rdata(map(rdata, t))
_collapse_rdata(t::Tuple) = _all_of(NoRData, t) ? NoRData() : t

zero_codual(x) = CoDual(x, zero_tangent(x))
zero_fcodual(x) = CoDual(x, _zero_fdata(x))
zero_dual(x) = Dual(x, zero_tangent(x))
_zero_fdata(x) = _zero_fdata(x, Core.fdata_type(Core.tangent_type(typeof(x))))
_zero_fdata(x, ::Type{NoFData}) = NoFData()
_zero_fdata(x, ::Type{F}) where {F} = Core.tangent_fdata(x, zero_tangent(x))::F

# The zero reverse data of primal `x`.
zero_rdata(x) = _zero_rdata(x, Core.rdata_type(Core.tangent_type(typeof(x))))
_zero_rdata(x, ::Type{NoRData}) = NoRData()
_zero_rdata(x::Union{Float64, Float32}, ::Type{R}) where {R} = zero(x)
_zero_rdata(x, ::Type{R}) where {R} = Core.tangent_rdata(x, zero_tangent(x))::R

# `increment!!(a, b)`: `a + b` for tangents, adding into `a` in place where it is mutable.
increment!!(a::Float64, b::Float64) = a + b
increment!!(a::Float32, b::Float32) = a + b
increment!!(a::NoTangent, b::NoTangent) = a
increment!!(a::NoFData, b::NoFData) = a
increment!!(a::NoRData, b::NoRData) = a
function increment!!(a::Array{T, N}, b::Array{T, N}) where {T, N}
    a === b && return a
    for i in eachindex(a, b)
        a[i] = increment!!(a[i], b[i])
    end
    a
end
increment!!(a::Tuple, b::Tuple) = map(increment!!, a, b)

# The pullback of a rule whose derivative is zero: the zero rdata of each argument.
struct NoPullback{R}
    r::R
end
NoPullback(args::CoDual...) = NoPullback(map(a -> zero_rdata(primal(a)), args))
(pb::NoPullback)(dy) = pb.r

# The reverse-mode rule of a function with a zero derivative (`@zero_adjoint`).
function zero_adjoint(f::CoDual, x::CoDual...)
    y = primal(f)(map(primal, x)...)
    return zero_fcodual(y), NoPullback(f, x...)
end

# The forward-mode rule of a function with a zero derivative (`@zero_derivative`).
function zero_derivative(f::Dual, x::Dual...)
    y = primal(f)(map(primal, x)...)
    return zero_dual(y)
end

# `stop_gradient(x)`: `x` (a copy of an array), through which no derivative flows.
stop_gradient(x) = x
stop_gradient(x::Array) = copy(x)
@zero_derivative MinimalCtx Tuple{typeof(stop_gradient), Any}

# Rules of the language's users: `@is_primitive` makes calls matching a signature run them.
function rrule!! end
function frule!! end

# The adapters derived code calls for a user primitive: they call the user's rule and check
# that what it returns has the types the derived code needs (`Y` is the primal's return type,
# `F` its fdata or tangent type, `R` the tuple of the arguments' rdata types).
function _user_rrule_fwd(rule, ::Type{Y}, ::Type{F}, args::CoDual...) where {Y, F}
    out = rule(args...)
    out isa Tuple && length(out) == 2 ||
        _bad_rule(args, "rrule!! must return a tuple (CoDual, pullback), not a value of type $(typeof(out))")
    y = out[1]
    y isa CoDual ||
        _bad_rule(args, "the first element rrule!! returns must be a CoDual, not a value of type $(typeof(y))")
    primal(y) isa Y ||
        _bad_rule(args, "rrule!! returned a primal of type $(typeof(primal(y))) where the function returns $(Y)")
    tangent(y) isa F || (y = CoDual(primal(y), _as_data(F, tangent(y))))
    tangent(y) isa F ||
        _bad_rule(args, "rrule!! returned fdata of type $(typeof(tangent(y))) for a primal of type $(typeof(primal(y))); its fdata type is $(F)")
    _fits(primal(y), tangent(y)) ||
        _bad_rule(args, "rrule!! returned fdata of size $(size(tangent(y))) for a primal of size $(size(primal(y)))")
    return ((primal(y)::Y, tangent(y)::F), out[2])
end

# Whether an array's fdata (tangent) has the array's shape.
_fits(p::Array, t::Array) = size(p) == size(t)
_fits(p, t) = true

function _user_rrule_rvs(pb, dy, ::Type{R}, rts::Tuple, what::String) where {R}
    r = _as_data(R, pb(dy))
    r isa R || _bad_pullback(what, r, rts)
    return r::R
end

function _bad_pullback(what, r, rts)
    n = length(rts)
    r isa Tuple || _bad_rule_of(what, "the pullback must return a tuple of $(n) rdata (one for the function and one per argument), not a value of type $(typeof(r))")
    length(r) == n || _bad_rule_of(what, "the pullback returned $(length(r)) rdata; it must return $(n) (one for the function and one per argument)")
    for k in 1:n
        r[k] isa rts[k] || _bad_rule_of(what, "the pullback returned rdata of type $(typeof(r[k])) for $(k == 1 ? "the function" : "argument $(k - 1)"); its rdata type is $(rts[k])")
    end
    _bad_rule_of(what, "the pullback returned a value of type $(typeof(r))")
end

function _user_frule(rule, ::Type{Y}, ::Type{T}, args::Dual...) where {Y, T}
    y = rule(args...)
    y isa Dual ||
        _bad_rule(args, "frule!! must return a Dual, not a value of type $(typeof(y))")
    primal(y) isa Y ||
        _bad_rule(args, "frule!! returned a primal of type $(typeof(primal(y))) where the function returns $(Y)")
    tangent(y) isa T || (y = Dual(primal(y), _as_data(T, tangent(y))))
    tangent(y) isa T ||
        _bad_rule(args, "frule!! returned a tangent of type $(typeof(tangent(y))) for a primal of type $(typeof(primal(y))); its tangent type is $(T)")
    _fits(primal(y), tangent(y)) ||
        _bad_rule(args, "frule!! returned a tangent of size $(size(tangent(y))) for a primal of size $(size(primal(y)))")
    return (primal(y)::Y, tangent(y)::T)
end

# Forward mode through a reverse-mode rule of a function of floats returning a float: the
# pullback of a unit cotangent gives every partial derivative.
function _user_frule_by_rrule(rule, ::Type{Y}, args::Dual...) where {Y}
    out = rule(map(a -> CoDual(primal(a), NoFData()), args)...)
    y = primal(out[1])::Y
    r = out[2](one(y))
    return (y, _dot_partials(r, map(tangent, args), zero(y))::Y)
end
_dot_partials(r::Tuple{}, t::Tuple{}, acc) = acc
_dot_partials(r::Tuple, t::Tuple, acc) =
    _dot_partials(_tuple_tail(r...), _tuple_tail(t...), acc + _partial_times(r[1], t[1]))
_partial_times(r::Union{Float64, Float32}, t::Union{Float64, Float32}) = r * t
_partial_times(r, t) = false

_bad_rule(args, msg) = _bad_rule_of(_call_string(args), msg)
_bad_rule_of(what, msg) = throw(ErrorException("the rule of $(what): $(msg)"))
_call_string(args) = string(primal(args[1]), "(", join(map(a -> string(typeof(primal(a))), _tuple_tail(args...)), ", "), ")")

# Mooncake's interface for computing derivatives: options, prepared caches, and the values
# with gradients, pullbacks and derivatives they compute. (Rules are derived once and kept by
# the session, so a cache holds only the options.)
# (`Mooncake.Config`, `Mooncake.Cache` and `Mooncake.Mode` are these names, which leave
# `Config`, `Cache` and `Mode` free for a program's own types.)
struct _Mooncake_Config
    debug_mode::Bool
    silence_debug_messages::Bool
    friendly_tangents::Bool
    chunk_size::Union{Nothing, Int}
end
function _Mooncake_Config(; debug_mode::Bool = false, silence_debug_messages::Bool = false,
        friendly_tangents::Bool = false, chunk_size = nothing)
    return _Mooncake_Config(debug_mode, silence_debug_messages, friendly_tangents, chunk_size)
end

_not_yet(what) = throw(ErrorException("not supported yet: $(what)"))

# A prepared rule or cache: what `build_rrule`, `prepare_gradient_cache`,
# `prepare_pullback_cache` and `prepare_derivative_cache` return.
struct _Mooncake_Cache
    config::_Mooncake_Config
end

build_rrule(f, x...; debug_mode::Bool = false) = _Mooncake_Cache(_Mooncake_Config(; debug_mode = debug_mode))
build_rrule(::Type{T}; debug_mode::Bool = false) where {T<:Tuple} =
    _Mooncake_Cache(_Mooncake_Config(; debug_mode = debug_mode))
prepare_gradient_cache(f, x...; config = _Mooncake_Config()) = _Mooncake_Cache(config)
prepare_pullback_cache(f, x...; config = _Mooncake_Config()) = _Mooncake_Cache(config)
prepare_derivative_cache(f, x...; config = _Mooncake_Config()) = _Mooncake_Cache(config)

# `(f(x...), (df, dx...))`: the value and the gradient with respect to `f` and each argument
# (`f` returning a float).
function value_and_gradient!!(cache::_Mooncake_Cache, f, x...; args_to_zero = nothing)
    _args_to_zero(args_to_zero, 1 + length(x))
    return _as_configured(cache.config, Core.vjp_apply(nothing, f, x...))
end
# `(f(x...), (df, dx...))` for the output's cotangent `dy` (with friendly tangents, a value
# of the output's type).
function value_and_pullback!!(cache::_Mooncake_Cache, dy, f, x...; args_to_zero = nothing)
    _args_to_zero(args_to_zero, 1 + length(x))
    cache.config.friendly_tangents && (dy = _unfriendly(dy))
    return _as_configured(cache.config, Core.vjp_apply(dy, f, x...))
end
# Which cotangents to set to zero before differentiating: every call computes its gradients
# from zero, so a `false` entry gives what Mooncake gives for the arguments it is safe for
# (those without differentiable data), and a correct gradient for the others.
_args_to_zero(::Nothing, n) = nothing
function _args_to_zero(t::Tuple, n)
    length(t) == n || throw(ArgumentError("args_to_zero must have one entry per argument, the function's first: expected $(n), got $(length(t))"))
    all(b -> b isa Bool, t) || throw(ArgumentError("args_to_zero must be a tuple of Bools, not a $(typeof(t))"))
    return nothing
end

# Friendly tangents (`Config(friendly_tangents = true)`): a struct's tangent as the named
# tuple of its fields' friendly tangents; floats, arrays of floats and `NoTangent()` as they
# are; a complex number's tangent as a complex number.
_as_configured(config::_Mooncake_Config, (y, g)) =
    config.friendly_tangents ? (y, map(_friendly, g)) : (y, g)
_friendly(t::Union{Float64, Float32, NoTangent}) = t
_friendly(t::Array{T}) where {T<:Union{Float64, Float32}} = t
_friendly(t::Array) = map(_friendly, t)
_friendly(t::Tuple) = map(_friendly, t)
_friendly(t::NamedTuple) = map(_friendly, t)
function _friendly(t)
    _is_complex_tangent(t) && return complex(t.fields.re, t.fields.im)
    return map(_friendly, t.fields)
end
_is_complex_tangent(t) = typeof(t) === Core.tangent_type(ComplexF64) || typeof(t) === Core.tangent_type(ComplexF32)

# A friendly cotangent (a value of the output's type) as the output's tangent.
_unfriendly(dy::Union{Float64, Float32}) = dy
_unfriendly(dy::Array{T}) where {T<:Union{Float64, Float32}} = dy
_unfriendly(dy::Tuple) = map(_unfriendly, dy)
_unfriendly(dy) = throw(ArgumentError("not supported yet: a friendly cotangent of type $(typeof(dy)) (give the output's tangent, or a float, an array of floats or a tuple of them)"))

# `(f(x...), its tangent)` for tangents given as `(x, dx)` pairs (the function's first), or a
# `Dual` for `Dual` arguments.
value_and_derivative!!(cache::_Mooncake_Cache, fx::Tuple, xs::Tuple...) =
    Core.jvp_apply(_flatten_pairs((fx, xs...))...)
function value_and_derivative!!(cache::_Mooncake_Cache, f::Dual, xs::Dual...)
    y, dy = Core.jvp_apply(_flatten_pairs(map(d -> (primal(d), tangent(d)), (f, xs...)))...)
    return Dual(y, dy)
end
_flatten_pairs(p::Tuple{}) = ()
_flatten_pairs(p::Tuple) = (p[1][1], p[1][2], _flatten_pairs(_tuple_tail(p...))...)

# Jacobians, Hessian-vector products and Hessians. `value_and_jacobian!!(cache, f, x)`: `f(x)`
# and its Jacobian (a column per element of `x`, by forward mode), for a vector `x` and a vector
# result of the same element type.
function value_and_jacobian!!(cache::_Mooncake_Cache, f, x::Vector{T}) where {T<:Union{Float64, Float32}}
    isempty(x) && throw(ArgumentError("value_and_jacobian!! requires a non-empty input vector"))
    y = f(x)
    y isa AbstractVector || throw(ArgumentError("value_and_jacobian!! only supports AbstractVector outputs; got $(typeof(y))"))
    eltype(y) === T || throw(ArgumentError("value_and_jacobian!! needs an output of element type $(T), the input's; got $(eltype(y))"))
    J = zeros(T, length(y), length(x))
    e = zeros(T, length(x))
    for j in eachindex(x)
        e[j] = one(T)
        J[:, j] = Core.dual_apply(f, Core.zero_tangent(f), x, e)
        e[j] = zero(T)
    end
    return y, J
end
value_and_jacobian!!(cache::_Mooncake_Cache, f, x) =
    throw(ArgumentError("value_and_jacobian!! only supports a vector of floats as input; got $(typeof(x))"))

prepare_hvp_cache(f, x...; config = _Mooncake_Config()) = _hvp_cache(config, x)
prepare_hessian_cache(f, x...; config = _Mooncake_Config()) = _hvp_cache(config, x)
function _hvp_cache(config, x::Tuple)
    isempty(x) && throw(ArgumentError("a Hessian needs at least one x argument"))
    return _Mooncake_Cache(config)
end

# `(f(x), ∇f(x), ∇²f(x) v)` by forward mode over the reverse-mode gradient; for several
# arguments, `v` a tuple with a direction for each, and the gradients and products tuples.
function value_and_hvp!!(cache::_Mooncake_Cache, f, v, x)
    _same_shape(x, v, 1)
    y, g = _value_and_gradient_of(f, x)
    return y, g, Core.dual_apply(z -> Core.grad_apply(f, z), NoTangent(), x, v)
end
function value_and_hvp!!(cache::_Mooncake_Cache, f, v::Tuple, x1, xs...)
    all_x = (x1, xs...)
    length(v) == length(all_x) || throw(ArgumentError("Expected one tangent direction per primal argument"))
    for k in eachindex(all_x)
        _same_shape(all_x[k], v[k], k)
    end
    z, parts = _joined(all_x)
    g = z -> Core.grad_apply(w -> f(_split(w, parts)...), z)
    y = f(all_x...)
    return y, _split(g(z), parts), _split(Core.dual_apply(g, NoTangent(), z, _joined(v)[1]), parts)
end

_value_and_gradient_of(f, x) = (y = Core.vjp_apply(nothing, f, x); (y[1], y[2][2]))

_same_shape(x::AbstractArray, v::AbstractArray, k) = size(x) == size(v) ||
    throw(ArgumentError("Tangent direction for argument $k must match the primal axes; got axes $(axes(v)) for tangent vs $(axes(x)) for primal"))
_same_shape(x::Union{Float64, Float32}, v::Union{Float64, Float32}, k) = true
_same_shape(x, v, k) = throw(ArgumentError("not supported yet: Hessian-vector products with respect to a value of type $(typeof(x)) (floats and vectors of floats are)"))

# Vectors of floats (and floats) joined into one vector, and taken apart again.
_joined(xs::Tuple) = (vcat(map(_as_vector, xs)...), map(_part_shape, xs))
_as_vector(x::Vector{T}) where {T<:Union{Float64, Float32}} = x
_as_vector(x::Union{Float64, Float32}) = [x]
_as_vector(x) = throw(ArgumentError("not supported yet: Hessians with respect to a value of type $(typeof(x)) when there are several arguments (vectors of floats and floats are)"))
struct _ScalarPart end
_part_shape(x::Vector) = length(x)
_part_shape(x::Union{Float64, Float32}) = _ScalarPart()
_part_length(n::Int) = n
_part_length(::_ScalarPart) = 1
_split(z, parts::Tuple) = _split_from(z, 1, parts...)
_split_from(z, at) = ()
_split_from(z, at, n::_ScalarPart, rest...) = (z[at], _split_from(z, at + 1, rest...)...)
_split_from(z, at, n::Int, rest...) = (z[at:(at + n - 1)], _split_from(z, at + n, rest...)...)

# `(f(x), ∇f(x), ∇²f(x))` for a vector `x`; for several vectors, the gradients and the blocks
# `H[k][j]` (`∂²f/∂x_k∂x_j`, of size `n_k × n_j`).
function value_gradient_and_hessian!!(cache::_Mooncake_Cache, f, x::Vector{T}) where {T<:Union{Float64, Float32}}
    y, g = _value_and_gradient_of(f, x)
    n = length(x)
    H = zeros(T, n, n)
    e = zeros(T, n)
    gf = z -> Core.grad_apply(f, z)
    for i in 1:n
        e[i] = one(T)
        H[:, i] = Core.dual_apply(gf, NoTangent(), x, e)
        e[i] = zero(T)
    end
    return y, g, H
end
function value_gradient_and_hessian!!(cache::_Mooncake_Cache, f, x1::Vector{T}, xs::Vector{T}...) where {T<:Union{Float64, Float32}}
    all_x = (x1, xs...)
    z, parts = _joined(all_x)
    y, g, H = value_gradient_and_hessian!!(cache, w -> f(_split(w, parts)...), z)
    offsets = cumsum((0, map(_part_length, parts)...))
    blocks = ntuple(k -> ntuple(j -> H[(offsets[k] + 1):offsets[k + 1], (offsets[j] + 1):offsets[j + 1]], length(all_x)), length(all_x))
    return y, _split(g, parts), blocks
end
value_gradient_and_hessian!!(cache::_Mooncake_Cache, f, x...) =
    throw(ArgumentError("value_gradient_and_hessian!! supports only vectors of floats, all of one element type; got $(map(typeof, x))"))

# Mooncake's `TestUtils.test_rule(rng, f, x...; is_primitive = true, ...)`: the rule of the call
# `f(x...)` checked against central finite differences (some step from 1e-2 to 1e-8 agreeing
# within `atol + rtol * magnitude`) in the modes `mode` names (both by default), with
# increments, restored arguments and rule reuse checked too, and (with `is_primitive`) that
# the call runs a declared rule; `interface_only = true` checks all but the derivatives'
# values. Returns `nothing` when every check passes; otherwise prints each check and raises.
function test_rule(rng, f, x...; is_primitive::Bool = true, mode = nothing,
        interface_only::Bool = false, perf_flag = nothing, atol::Real = 1e-3, rtol::Real = 1e-3,
        debug_mode::Bool = false, unsafe_perturb::Bool = false, print_results::Bool = false)
    passed, report = Core.test_rule_apply(rand(rng, 1:1_000_000_000), is_primitive,
        _test_modes(mode), interface_only, Float64(atol), Float64(rtol), f, x...)
    print_results && print(report)
    passed && return nothing
    print_results || print(report)
    throw(ErrorException("test_rule failed for $(f) at argument types $(map(typeof, x))"))
end
_test_modes(::Nothing) = 0
_test_modes(::Type{ReverseMode}) = 1
_test_modes(::Type{ForwardMode}) = 2
_test_modes(m) = throw(ArgumentError("mode must be nothing, Mooncake.ForwardMode or Mooncake.ReverseMode, not $(m)"))
