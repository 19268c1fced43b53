# Float ranges, as Julia builds them: `a:s:b` and `range(...)` of Float64 values are
# `StepRangeLen`s whose reference value and step are kept in twice precision, so that
# `0.1:0.1:0.3` ends exactly at 0.3 and every element is the float nearest the exact rational
# value when the endpoints are simple fractions; `LinRange` interpolates between its endpoints.
# Element values, lengths, sums, printing and the arithmetic Julia performs on the range itself
# (`2 .* r`, `r .+ 1`, `r / 2`, `r + r`, giving new ranges) are Julia's.

# A number as an unevaluated sum hi + lo, with hi holding the leading bits.
struct TwicePrecision{T}
    hi::T
    lo::T
end

struct StepRangeLen{T,R,S,L} <: AbstractRange{T}
    ref::R
    step::S
    len::L
    offset::L
end

struct LinRange{T,L} <: AbstractRange{T}
    start::T
    stop::T
    len::L
    lendiv::L
end

reinterpret(::Type{Int64}, x::Float64) = Core.bitcast(Int64, x)
reinterpret(::Type{Float64}, x::Int64) = Core.bitcast(Float64, x)

# `x` with the low `nb` bits of its significand cleared.
_truncbits(x::Float64, nb::Int64) = Core.bitcast(Float64, Core.and_int(Core.bitcast(Int64, x), -1 << nb))

# (h, l) with h = big + little rounded and l the rounding error (|big| >= |little|).
function _canonicalize2(big::Float64, little::Float64)
    h = big + little
    (h, (big - h) + little)
end
_add12(x::Float64, y::Float64) = abs(y) > abs(x) ? _canonicalize2(y, x) : _canonicalize2(x, y)
function _mul12(x::Float64, y::Float64)
    h = x * y
    (iszero(h) || !isfinite(h)) ? (h, h) : _canonicalize2(h, fma(x, y, -h))
end

# An Int64 exactly, as a leading part with at most 27 significant bits and the rest.
function _splitprec(i::Int64)
    hi = _truncbits(Float64(i), 27)
    (hi, Float64(i - trunc(Int64, hi)))
end

_tp(x::Float64) = TwicePrecision{Float64}(x, 0.0)
function _tp(i::Int64)
    h, l = _canonicalize2(_splitprec(i)...)
    TwicePrecision{Float64}(h, l)
end
# n / d in twice precision.
_tp(n::Int64, d::Int64) = _tp_div(_tp(n), _tp(Float64(d)))
function _tp_div(x::TwicePrecision{Float64}, y::TwicePrecision{Float64})
    hi = x.hi / y.hi
    uh, ul = _mul12(hi, y.hi)
    lo = ((((x.hi - uh) - ul) + x.lo) - hi * y.lo) / y.hi
    (iszero(hi) || !isfinite(hi)) && return TwicePrecision{Float64}(hi, hi)
    h, l = _canonicalize2(hi, lo)
    TwicePrecision{Float64}(h, l)
end
function _tp_add(x::TwicePrecision{Float64}, y::TwicePrecision{Float64})
    r = x.hi + y.hi
    s = abs(x.hi) > abs(y.hi) ? (((x.hi - r) + y.hi) + y.lo) + x.lo : (((y.hi - r) + x.hi) + x.lo) + y.lo
    h, l = _canonicalize2(r, s)
    TwicePrecision{Float64}(h, l)
end
function _tp_mul(x::TwicePrecision{Float64}, v::Int64)
    v == 0 && return TwicePrecision{Float64}(x.hi * v, x.lo * v)
    nb = ceil(Int64, log2(Float64(abs(v))))
    u = _truncbits(x.hi, nb)
    h, l = _canonicalize2(u * v, ((x.hi - u) + x.lo) * v)
    TwicePrecision{Float64}(h, l)
end
# The leading part keeps only bits that survive multiplication by integers of up to nb bits.
function _twiceprecision(x::TwicePrecision{Float64}, nb::Int64)
    hi = _truncbits(x.hi, nb)
    TwicePrecision{Float64}(hi, (x.hi - hi) + x.lo)
end

_nbitslen(len::Int64, offset::Int64) = min(27, len < 2 ? 0 : ceil(Int64, log2(Float64(max(offset - 1, len - offset)))) + 1)

_srl(ref::TwicePrecision{Float64}, step::TwicePrecision{Float64}, len::Int64, offset::Int64) =
    StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}(ref, step, len, offset)
# From rationals ref = rn/rd and step = sn/sd.
_srl_rational(rn::Int64, rd::Int64, sn::Int64, sd::Int64, nb::Int64, len::Int64, offset::Int64) =
    _srl(_tp(rn, rd), _twiceprecision(_tp(sn, sd), nb), len, offset)

# A copy of `x` without its derivative (its bits).
_detached(x::Float64) = Core.bitcast(Float64, Core.bitcast(Int64, x))
# A range built exactly from fractions, whose element i is start + (i - 1) * step, with the
# derivatives of `start` and `step` put back into its reference value and step: `eps_start` is
# `_detached(start) - start` (and so for the step), a +0.0 whose derivative is minus start's;
# subtracting a +0.0 from a low part leaves every bit of it (also of -0.0).
function _carry(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, eps_start::Float64, eps_step::Float64)
    ref = TwicePrecision{Float64}(r.ref.hi, r.ref.lo - (eps_start + (r.offset - 1) * eps_step))
    _srl(ref, TwicePrecision{Float64}(r.step.hi, r.step.lo - eps_step), r.len, r.offset)
end

# The range of `len` values start_n/den, (start_n + step_n)/den, ..., referenced at the element
# of smallest magnitude.
function _floatrange(start_n::Int64, step_n::Int64, len::Int64, den::Int64)
    if len < 2 || step_n == 0
        return _srl_rational(start_n, den, step_n, den, 0, len, 1)
    end
    imin = clamp(round(Int64, -start_n / step_n + 1), 1, len)
    ref_n = start_n + (imin - 1) * step_n
    _srl_rational(ref_n, den, step_n, den, _nbitslen(len, imin), len, imin)
end

# A rational n/d whose float is x, by continued fractions ((0, 0) if none is small enough).
function _rat(x::Float64)
    y = x
    a = 1
    d = 1
    b = 0
    c = 0
    m = 16777216
    while abs(y) <= m
        f = trunc(Int64, y)
        y -= f
        a, c = f * a + c, a
        b, d = f * b + d, b
        max(abs(a), abs(b)) <= m || return (c, d)
        Float64(a) / Float64(b) == x && break
        y = 1.0 / y
    end
    (a, b)
end

function gcd(a::Int64, b::Int64)
    a = abs(a)
    b = abs(b)
    while b != 0
        a, b = b, rem(a, b)
    end
    a
end
lcm(a::Int64, b::Int64) = (a == 0 || b == 0) ? 0 : abs(a * div(b, gcd(a, b)))
_isbetween(a, x, b) = (a <= x <= b) || (b <= x <= a)

const _maxintfloat = 9.007199254740992e15

function (:)(start::Float64, step::Float64, stop::Float64)
    step == 0 && throw(ArgumentError("range step cannot be zero"))
    # Endpoints and step that are simple fractions give the range of those fractions.
    step_n, step_d = _rat(step)
    if step_d != 0 && step_n / step_d == step
        start_n, start_d = _rat(start)
        stop_n, stop_d = _rat(stop)
        if start_d != 0 && stop_d != 0 && start_n / start_d == start && stop_n / stop_d == stop
            den = start_d * div(step_d, gcd(start_d, step_d))
            if den != 0 && abs(start * den) <= _maxintfloat && abs(step * den) <= _maxintfloat &&
                    rem(den, start_d) == 0 && rem(den, step_d) == 0
                start_n = round(Int64, start * den)
                step_n = round(Int64, step * den)
                len = max(0, div(den * stop_n - stop_d * start_n + step_n * stop_d, step_n * stop_d))
                if _isbetween(start, start + (len - 1) * step, stop + step / 2) &&
                        !_isbetween(start, start + len * step, stop)
                    r = _floatrange(start_n, step_n, len, den)
                    return _carry(r, _detached(start) - start, _detached(step) - step)
                end
            end
        end
    end
    # Otherwise start and step as they are.
    lf = (stop - start) / step
    if lf < 0
        len = 0
    elseif lf == 0
        len = 1
    else
        len = round(Int64, lf) + 1
        stop2 = start + (len - 1) * step
        len -= (start < stop < stop2) + (start > stop > stop2)
    end
    _srl(_tp(start), _tp(step), len, 1)
end
function (:)(start::Real, step::Real, stop::Real)
    T = promote_type(promote_type(typeof(start), typeof(step)), typeof(stop))
    T === Float64 || throw(ArgumentError(string("not supported yet: a range of ", T, " values")))
    Float64(start):Float64(step):Float64(stop)
end
(:)(start::Float64, stop::Float64) = start:1.0:stop
(:)(start::Float64, stop::Int64) = start:1.0:Float64(stop)
(:)(start::Int64, stop::Float64) = Float64(start):1.0:stop

length(r::StepRangeLen) = r.len
size(r::StepRangeLen) = (r.len,)
isempty(r::StepRangeLen) = r.len == 0
eltype(r::StepRangeLen{T}) where {T} = T
step(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) = r.step.hi + r.step.lo
function _srl_at(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, i::Int64)
    u = i - r.offset
    shift_hi = u * r.step.hi
    shift_lo = u * r.step.lo
    x_hi, x_lo = _add12(r.ref.hi, shift_hi)
    x_hi + (x_lo + (shift_lo + r.ref.lo))
end
function getindex(r::StepRangeLen, i::Int64)
    (1 <= i <= r.len) || Core.throw_bounds(r, i)
    _srl_at(r, i)
end
first(r::StepRangeLen) = _srl_at(r, 1)
last(r::StepRangeLen) = _srl_at(r, r.len)
iterate_start(r::StepRangeLen) = 1
iterate_done(r::StepRangeLen, i::Int64) = i > r.len
iterate_next(r::StepRangeLen, i::Int64) = (_srl_at(r, i), i + 1)
==(a::StepRangeLen, b::StepRangeLen) = (isempty(a) && isempty(b)) || (first(a) == first(b) && length(a) == length(b) && last(a) == last(b))

# The sum of the step over all indices (those before the reference count negatively) and of the
# reference, in twice precision.
function sum(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64})
    l = r.len
    np = l - r.offset
    nn = r.offset - 1
    sp1, sp2 = _sumpair(np)
    sn1, sn2 = _sumpair(nn)
    tp = _tp_mul(_tp_mul(r.step, sp1), sp2)
    tn = _tp_mul(_tp_mul(r.step, sn1), sn2)
    s_hi, s_lo = _add12(tp.hi, -tn.hi)
    s_lo += tp.lo - tn.lo
    ref = _tp_mul(r.ref, l)
    sm_hi, sm_lo = _add12(s_hi, ref.hi)
    _add12(sm_hi, sm_lo + ref.lo)[1]
end
# 1 + 2 + ... + n as a product of two integers.
_sumpair(n::Int64) = iseven(n) ? (n + 1, n >> 1) : (n, (n + 1) >> 1)

# range(start, stop; length), range(start; stop, length), range(start; step, length), ...
range(start; stop = nothing, length = nothing, step = nothing) = _range(start, step, stop, length)
range(start, stop; length = nothing, step = nothing) = _range(start, step, stop, length)
range(start, stop, length::Int64) = _range(start, nothing, stop, length)
range(; start = nothing, stop = nothing, length = nothing, step = nothing) = _range(start, step, stop, length)

_range(start::Nothing, step::Nothing, stop::Nothing, len::Int64) = OneTo(len)
_range(start::Nothing, step::Nothing, stop::Int64, len::Nothing) = OneTo(stop)
_range(start::Nothing, step::Nothing, stop::Int64, len::Int64) = (stop - len + 1):stop
_range(start::Int64, step::Nothing, stop::Nothing, len::Int64) = start:(start + len - 1)
_range(start, step::Nothing, stop, len::Nothing) = start:stop
_range(start, step, stop, len::Nothing) = start:step:stop
_range(start::Int64, step::Int64, stop::Nothing, len::Int64) = start:step:(start + step * (len - 1))
_range(start::Int64, step::Nothing, stop::Int64, len::Int64) = _linspace_int(start, stop, len, 1)
_range(start::Float64, step::Nothing, stop::Float64, len::Int64) = _linspace(start, stop, len)
# Endpoints of different types: a LinRange, as Julia makes.
_range(start::Real, step::Nothing, stop::Real, len::Int64) = LinRange(start, stop, len)
function _range(start::Real, step::Real, stop::Nothing, len::Int64)
    T = promote_type(typeof(start), typeof(step))
    T === Float64 || throw(ArgumentError(string("not supported yet: a range of ", T, " values")))
    a = Float64(start)
    st = Float64(step)
    start_n, start_d = _rat(a)
    step_n, step_d = _rat(st)
    if start_d != 0 && step_d != 0 && start_n / start_d == a && step_n / step_d == st
        den = start_d * div(step_d, gcd(start_d, step_d))
        if abs(den * a) <= _maxintfloat && abs(den * st) <= _maxintfloat && rem(den, start_d) == 0 && rem(den, step_d) == 0
            r = _floatrange(round(Int64, den * a), round(Int64, den * st), len, den)
            return _carry(r, _detached(a) - a, _detached(st) - st)
        end
    end
    _srl(_tp(a), _tp(st), len, 1)
end
_range(start, step, stop, len) = throw(ArgumentError(string("Cannot construct range from arguments:\nstart = ", start, "\nstep = ", step, "\nstop = ", stop, "\nlength = ", len, "\nTry specifying only three arguments")))

function _linspace_endpoints(start::Float64, stop::Float64, len::Int64)
    len < 0 && throw(ArgumentError(string("range(", start, ", stop=", stop, ", length=", len, "): negative length")))
    len == 1 && start != stop && throw(ArgumentError(string("range(", start, ", stop=", stop, ", length=", len, "): endpoints differ")))
    _srl(_tp(start), TwicePrecision{Float64}(start, -stop), len, 1)
end

# `len` values from start_n/den to stop_n/den.
function _linspace_int(start_n::Int64, stop_n::Int64, len::Int64, den::Int64)
    len < 2 && return _linspace_endpoints(start_n / den, stop_n / den, len)
    start_n == stop_n && return _srl_rational(start_n, den, 0, den, 0, len, 1)
    tmin = -start_n / (Float64(stop_n) - Float64(start_n))
    imin = clamp(round(Int64, tmin * (len - 1) + 1), 1, len)
    # Julia forms these in 128-bit integers; here they must fit in 64.
    ref_num = _checked_ref(len - imin, start_n, imin - 1, stop_n)
    ref_den = (len - 1) * den
    _srl_rational(ref_num, ref_den, stop_n - start_n, ref_den, _nbitslen(len, imin), len, imin)
end
function _checked_ref(a::Int64, x::Int64, b::Int64, y::Int64)
    lim = 3037000499
    (abs(a) <= lim && abs(x) <= lim && abs(b) <= lim && abs(y) <= lim) ||
        throw(ArgumentError("not supported yet: a range whose endpoints as fractions have numerators this large"))
    a * x + b * y
end

function _linspace(start::Float64, stop::Float64, len::Int64)
    len < 2 && return _linspace_endpoints(start, stop, len)
    # (The zero step as stop - start keeps the endpoints' derivatives.)
    start == stop && return _srl(_tp(start), _tp(isfinite(start) ? (stop - start) / (len - 1) : 0.0), len, 1)
    start_n, start_d = _rat(start)
    stop_n, stop_d = _rat(stop)
    if start_d != 0 && stop_d != 0
        den = start_d * div(stop_d, gcd(start_d, stop_d))
        if den != 0 && abs(den * start) <= _maxintfloat && abs(den * stop) <= _maxintfloat
            start_n = round(Int64, den * start)
            stop_n = round(Int64, den * stop)
            if start_n / den == start && stop_n / den == stop
                eps_start = _detached(start) - start
                eps_stop = _detached(stop) - stop
                return _carry(_linspace_int(start_n, stop_n, len, den), eps_start, (eps_stop - eps_start) / (len - 1))
            end
        end
    end
    _linspace_general(start, stop, len)
end

# Endpoints that are not simple fractions: the reference at the element of smallest magnitude,
# the step split so that the endpoints come out exactly.
function _linspace_general(start::Float64, stop::Float64, len::Int64)
    (isfinite(start) && isfinite(stop)) || throw(ArgumentError(string("start and stop must be finite, got ", start, " and ", stop)))
    Δ = stop - start
    Δfac = 1
    if !isfinite(Δ)
        Δ = stop / len - start / len
        Δfac = len
    end
    tmin = -(start / Δ) / Δfac
    imin = round(Int64, tmin * (len - 1) + 1)
    if 1 < imin < len
        t = (imin - 1) / (len - 1)
        ref = (1 - t) * start + t * stop
        step = imin - 1 < len - imin ? (ref - start) / (imin - 1) : (stop - ref) / (len - imin)
    elseif imin <= 1
        imin = 1
        ref = start
        step = (Δ / (len - 1)) * Δfac
    else
        imin = len
        ref = stop
        step = (Δ / (len - 1)) * Δfac
    end
    if len == 2 && !isfinite(step)
        return _srl(_tp(start), TwicePrecision{Float64}(-start, stop), 2, 1)
    end
    m = 1.7976931348623155e308
    k = max(imin - 1, len - imin)
    step_hi_pre = clamp(step, max(-(m + ref) / k, (-m + ref) / k), min((m - ref) / k, (m + ref) / k))
    step_hi = _truncbits(step_hi_pre, _nbitslen(len, imin))
    x1_hi, x1_lo = _add12((1 - imin) * step_hi, ref)
    x2_hi, x2_lo = _add12((len - imin) * step_hi, ref)
    a = (start - x1_hi) - x1_lo
    b = (stop - x2_hi) - x2_lo
    step_lo = (b - a) / (len - 1)
    ref_lo = a - (1 - imin) * step_lo
    _srl(TwicePrecision{Float64}(ref, ref_lo), TwicePrecision{Float64}(step_hi, step_lo), len, imin)
end

# LinRange: `len` values interpolated between the endpoints.
function LinRange(start::Real, stop::Real, len::Int64)
    T = typeof((zero(stop) - zero(start)) / 1)
    T === Float64 || throw(ArgumentError(string("not supported yet: a LinRange of ", T, " values")))
    a = Float64(start)
    b = Float64(stop)
    len < 0 && throw(ArgumentError(string("range(", a, ", stop=", b, ", length=", len, "): negative length")))
    len == 1 && a != b && throw(ArgumentError(string("range(", a, ", stop=", b, ", length=", len, "): endpoints differ")))
    LinRange{Float64,Int64}(a, b, len, max(len - 1, 1))
end
length(r::LinRange) = r.len
size(r::LinRange) = (r.len,)
isempty(r::LinRange) = r.len == 0
eltype(r::LinRange{T}) where {T} = T
first(r::LinRange) = r.start
last(r::LinRange) = r.stop
step(r::LinRange) = (r.stop - r.start) / r.lendiv
function _lin_at(r::LinRange{Float64,Int64}, i::Int64)
    t = (i - 1) / r.lendiv
    (1 - t) * r.start + t * r.stop
end
function getindex(r::LinRange, i::Int64)
    (1 <= i <= r.len) || Core.throw_bounds(r, i)
    _lin_at(r, i)
end
iterate_start(r::LinRange) = 1
iterate_done(r::LinRange, i::Int64) = i > r.len
iterate_next(r::LinRange, i::Int64) = (_lin_at(r, i), i + 1)

# Arithmetic Julia performs on the range itself, giving a new range: on a float range in twice
# precision (the reference value and step of the result are the exact results rounded to
# twice precision, so `2 .* (0:0.1:1)` is `0.0:0.2:2.0` with every element the float nearest
# its exact value), on a LinRange on its endpoints.
_float_range_arith(r) = error("not supported yet: this arithmetic on a float range (Julia computes it as a new range); `collect` the range first")
function _tp_add(x::TwicePrecision{Float64}, y::Float64)
    s_hi, s_lo = _add12(x.hi, y)
    h, l = _canonicalize2(s_hi, s_lo + x.lo)
    TwicePrecision{Float64}(h, l)
end
_tp_neg(x::TwicePrecision{Float64}) = TwicePrecision{Float64}(-x.hi, -x.lo)
function _tp_mul(x::TwicePrecision{Float64}, y::TwicePrecision{Float64})
    zh, zl = _mul12(x.hi, y.hi)
    (iszero(zh) || !isfinite(zh)) && return TwicePrecision{Float64}(zh, zh)
    h, l = _canonicalize2(zh, (x.hi * y.lo + x.lo * y.hi) + zl)
    TwicePrecision{Float64}(h, l)
end
# x * v: by an integer exactly (splitting the leading part), by anything else as a float.
_tp_scale(x::TwicePrecision{Float64}, v::Int64) = _tp_mul(x, v)
_tp_scale(x::TwicePrecision{Float64}, v::Bool) = _tp_mul(x, Int64(v))
function _tp_scale(x::TwicePrecision{Float64}, v::Real)
    f = Float64(v)
    f == 0 && return TwicePrecision{Float64}(x.hi * f, x.lo * f)
    _tp_mul(x, TwicePrecision{Float64}(f, 0.0))
end
_tp_div(x::TwicePrecision{Float64}, v::Real) = _tp_div(x, TwicePrecision{Float64}(Float64(v), 0.0))
# Element i in twice precision.
function _srl_at_tp(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, i::Int64)
    u = i - r.offset
    shift_hi = u * r.step.hi
    shift_lo = u * r.step.lo
    x_hi, x_lo = _add12(r.ref.hi, shift_hi)
    h, l = _add12(x_hi, x_lo + (shift_lo + r.ref.lo))
    TwicePrecision{Float64}(h, l)
end

# Dotted arithmetic with a number moves the reference value and scales the step exactly.
_bcr(::typeof(+), r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, x::Real) = _srl(_tp_add(r.ref, Float64(x)), r.step, r.len, r.offset)
_bcr(::typeof(+), x::Real, r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) = _srl(_tp_add(r.ref, Float64(x)), r.step, r.len, r.offset)
_bcr(::typeof(-), r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, x::Real) = _srl(_tp_add(r.ref, Float64(-x)), r.step, r.len, r.offset)
_bcr(::typeof(-), x::Real, r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) = _srl(_tp_add(_tp_neg(r.ref), Float64(x)), _tp_neg(r.step), r.len, r.offset)
_bcr(::typeof(*), x::Real, r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) = _srl(_tp_scale(r.ref, x), _tp_scale(r.step, x), r.len, r.offset)
_bcr(::typeof(*), r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, x::Real) = _srl(_tp_scale(r.ref, x), _tp_scale(r.step, x), r.len, r.offset)
_bcr(::typeof(/), r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, x::Real) = _srl(_tp_div(r.ref, x), _tp_div(r.step, x), r.len, r.offset)
_bcr(::typeof(\), x::Real, r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) = _float_range_arith(r)
# Undotted, the step is also cut to bits that multiply exactly by every index.
*(x::Real, r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) =
    _srl(_tp_scale(r.ref, x), _twiceprecision(_tp_scale(r.step, x), _nbitslen(r.len, r.offset)), r.len, r.offset)
*(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, x::Real) = x * r
/(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, x::Real) =
    _srl(_tp_div(r.ref, x), _twiceprecision(_tp_div(r.step, x), _nbitslen(r.len, r.offset)), r.len, r.offset)
-(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) = _srl(_tp_neg(r.ref), _tp_neg(r.step), r.len, r.offset)
# Two float ranges of one length: referenced at their common reference index, or midway.
function +(r1::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, r2::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64})
    len = r1.len
    len == r2.len || throw(DimensionMismatch("argument dimensions must match"))
    if r1.offset == r2.offset
        imid = r1.offset
        ref = _tp_add(r1.ref, r2.ref)
    else
        imid = round(Int64, (r1.offset + r2.offset) / 2)
        ref = _tp_add(_srl_at_tp(r1, imid), _srl_at_tp(r2, imid))
    end
    _srl(ref, _twiceprecision(_tp_add(r1.step, r2.step), _nbitslen(len, imid)), len, imid)
end
-(r1::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, r2::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) = r1 + (-r2)

# LinRange: arithmetic on the endpoints.
_bcr(::typeof(+), r::LinRange, x::Real) = LinRange(r.start + x, r.stop + x, r.len)
_bcr(::typeof(+), x::Real, r::LinRange) = LinRange(x + r.start, x + r.stop, r.len)
_bcr(::typeof(-), r::LinRange, x::Real) = LinRange(r.start - x, r.stop - x, r.len)
_bcr(::typeof(-), x::Real, r::LinRange) = LinRange(x - r.start, x - r.stop, r.len)
_bcr(::typeof(*), x::Real, r::LinRange) = LinRange(x * r.start, x * r.stop, r.len)
_bcr(::typeof(*), r::LinRange, x::Real) = LinRange(r.start * x, r.stop * x, r.len)
_bcr(::typeof(/), r::LinRange, x::Real) = LinRange(r.start / x, r.stop / x, r.len)
_bcr(::typeof(\), x::Real, r::LinRange) = LinRange(x \ r.start, x \ r.stop, r.len)
*(x::Real, r::LinRange) = LinRange(x * r.start, x * r.stop, r.len)
*(r::LinRange, x::Real) = LinRange(r.start * x, r.stop * x, r.len)
/(r::LinRange, x::Real) = LinRange(r.start / x, r.stop / x, r.len)
-(r::LinRange) = LinRange(-r.start, -r.stop, r.len)
function +(r1::LinRange, r2::LinRange)
    r1.len == r2.len || throw(DimensionMismatch("argument dimensions must match"))
    LinRange(r1.start + r2.start, r1.stop + r2.stop, r1.len)
end
function -(r1::LinRange, r2::LinRange)
    r1.len == r2.len || throw(DimensionMismatch("argument dimensions must match"))
    LinRange(r1.start - r2.start, r1.stop - r2.stop, r1.len)
end
# Ranges of different kinds: Julia converts both to a common kind first.
+(a::AbstractRange, b::AbstractRange) = error("not supported yet: adding ranges of different kinds (Julia converts both to one kind of range first); `collect` one of them first")
-(a::AbstractRange, b::AbstractRange) = error("not supported yet: subtracting ranges of different kinds (Julia converts both to one kind of range first); `collect` one of them first")
# An operand of `+`, `-`, `*`, `/` or `\` inside a fused broadcast that also applies other
# functions, where the lowering could not split the arithmetic out (see `_bcr`).
_bc_arith_operand(x) = x
_bc_arith_operand(r::StepRangeLen) = _float_range_arith(r)
_bc_arith_operand(r::LinRange) = _float_range_arith(r)

# Integer ranges as `StepRangeLen`s (what `2 .* (1:5)` gives in Julia): element `i` is
# `ref + (i - offset) * step`.
StepRangeLen(ref::Int64, step::Int64, len::Int64, offset::Int64) = StepRangeLen{Int64,Int64,Int64,Int64}(ref, step, len, offset)
StepRangeLen(ref::Int64, step::Int64, len::Int64) = StepRangeLen(ref, step, len, 1)
_srl_at(r::StepRangeLen{Int64,Int64,Int64,Int64}, i::Int64) = r.ref + (i - r.offset) * r.step
step(r::StepRangeLen{Int64,Int64,Int64,Int64}) = r.step

# A dotted expression made only of `+`, `-`, `*`, `/` and `\` with a range among its operands
# runs one operation at a time through `_bcr`, as Julia's `broadcasted` does: an operation Julia
# performs on a range as a whole gives a range (`(1:5) .+ 1` is `2:6`, `2 .* (1:5)` is
# `2:2:10`, `.-(0:0.5:1)` is `0.0:-0.5:-1.0`); any other is an ordinary broadcast of its two
# operands, whose elements are those of the fused loop. (The lowering tests whether an operand
# is a range, a constant once the operands' types are known, and fuses the expression
# otherwise.)
_bcr(op, a) = broadcast(op, a)
_bcr(op, a, b) = broadcast(op, a, b)
_bcr(::typeof(+), r::AbstractRange) = r
_bcr(::typeof(-), r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = -r
_bcr(::typeof(-), r::StepRangeLen{Int64,Int64,Int64,Int64}) = StepRangeLen(-r.ref, -r.step, r.len, r.offset)
_bcr(::typeof(-), r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}) =
    StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}(TwicePrecision{Float64}(-r.ref.hi, -r.ref.lo), TwicePrecision{Float64}(-r.step.hi, -r.step.lo), r.len, r.offset)
_bcr(::typeof(-), r::LinRange{Float64,Int64}) = LinRange{Float64,Int64}(-r.start, -r.stop, r.len, r.lendiv)
_bcr(::typeof(-), r::AbstractRange) = _float_range_arith(r)
# Integer ranges and integers.
_bcr(::typeof(+), r::Union{UnitRange{Int64},OneTo{Int64}}, x::Union{Int64,Bool}) = (first(r) + x):(last(r) + x)
_bcr(::typeof(+), x::Union{Int64,Bool}, r::Union{UnitRange{Int64},OneTo{Int64}}) = (x + first(r)):(x + last(r))
_bcr(::typeof(+), r::StepRange{Int64,Int64}, x::Union{Int64,Bool}) = (first(r) + x):step(r):(last(r) + x)
_bcr(::typeof(+), x::Union{Int64,Bool}, r::StepRange{Int64,Int64}) = (x + first(r)):step(r):(x + last(r))
_bcr(::typeof(-), r::Union{UnitRange{Int64},OneTo{Int64}}, x::Union{Int64,Bool}) = (first(r) - x):(last(r) - x)
_bcr(::typeof(-), r::StepRange{Int64,Int64}, x::Union{Int64,Bool}) = (first(r) - x):step(r):(last(r) - x)
_bcr(::typeof(-), x::Union{Int64,Bool}, r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = (x - first(r)):(-step(r)):(x - last(r))
_bcr(::typeof(*), x::Union{Int64,Bool}, r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = StepRangeLen(x * first(r), x * step(r), length(r))
_bcr(::typeof(*), r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}, x::Union{Int64,Bool}) = StepRangeLen(first(r) * x, step(r) * x, length(r))
_bcr(::typeof(+), r::StepRangeLen{Int64,Int64,Int64,Int64}, x::Union{Int64,Bool}) = StepRangeLen(r.ref + x, r.step, r.len, r.offset)
_bcr(::typeof(+), x::Union{Int64,Bool}, r::StepRangeLen{Int64,Int64,Int64,Int64}) = StepRangeLen(x + r.ref, r.step, r.len, r.offset)
_bcr(::typeof(-), r::StepRangeLen{Int64,Int64,Int64,Int64}, x::Union{Int64,Bool}) = StepRangeLen(r.ref - x, r.step, r.len, r.offset)
_bcr(::typeof(-), x::Union{Int64,Bool}, r::StepRangeLen{Int64,Int64,Int64,Int64}) = StepRangeLen(x - r.ref, -r.step, r.len, r.offset)
_bcr(::typeof(*), x::Union{Int64,Bool}, r::StepRangeLen{Int64,Int64,Int64,Int64}) = StepRangeLen(x * r.ref, x * r.step, r.len, r.offset)
_bcr(::typeof(*), r::StepRangeLen{Int64,Int64,Int64,Int64}, x::Union{Int64,Bool}) = StepRangeLen(r.ref * x, r.step * x, r.len, r.offset)
# An integer range with a float, or divided: a float range in twice precision where Julia makes
# one from the first element and step (`0.5 .* (1:4)`, `(1:4) ./ 2`, `(0:4) / 10`); Julia's
# other results (plain-float `StepRangeLen`s, `Float32` ranges) are not supported yet.
_int_range_float() = error("not supported yet: arithmetic of an integer range giving floats of this kind (Julia computes it as a float range of its own kind); `collect` the range first")
_float_range_from(a::Float64, st::Float64, len::Int64) = _range(a, st, nothing, len)
_float_range_from(a, st, len::Int64) = _int_range_float()
_bcr(::typeof(+), r::AbstractRange{Int64}, x::Real) = _int_range_float()
_bcr(::typeof(+), x::Real, r::AbstractRange{Int64}) = _int_range_float()
_bcr(::typeof(-), r::AbstractRange{Int64}, x::Real) = _int_range_float()
_bcr(::typeof(-), x::Real, r::AbstractRange{Int64}) = _int_range_float()
_bcr(::typeof(*), r::AbstractRange{Int64}, x::Real) = _int_range_float()
_bcr(::typeof(*), x::Real, r::AbstractRange{Int64}) = _int_range_float()
# An integer range plus or minus a `Float64`: Julia's `range(first(r) + x, step = step(r),
# length = length(r))` (`(1:5) .+ 0.5` is `1.5:1.0:5.5`, `0.5 .- (1:3)` is `-0.5:-1.0:-2.5`).
_bcr(::typeof(+), r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}, x::Float64) = _float_range_from(first(r) + x, Float64(step(r)), length(r))
_bcr(::typeof(+), x::Float64, r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = _float_range_from(x + first(r), Float64(step(r)), length(r))
_bcr(::typeof(-), r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}, x::Float64) = _float_range_from(first(r) - x, Float64(step(r)), length(r))
_bcr(::typeof(-), x::Float64, r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = _float_range_from(x - first(r), -Float64(step(r)), length(r))
# (Dotted or not, these give the same range.)
_bcr(::typeof(*), x::AbstractFloat, r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = x * r
_bcr(::typeof(*), r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}, x::AbstractFloat) = r * x
_bcr(::typeof(/), r::AbstractRange{Int64}, x::Real) = _int_range_float()
_bcr(::typeof(/), r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}, x::Real) = r / x
_bcr(::typeof(\), x::Real, r::AbstractRange{Int64}) = _int_range_float()
_bcr(::typeof(\), x::Real, r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = _float_range_from(x \ first(r), x \ step(r), length(r))
*(x::AbstractFloat, r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}) = _float_range_from(x * first(r), x * step(r), length(r))
*(r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}, x::AbstractFloat) = _float_range_from(first(r) * x, step(r) * x, length(r))
/(r::Union{UnitRange{Int64},OneTo{Int64},StepRange{Int64,Int64}}, x::Real) = _float_range_from(first(r) / x, step(r) / x, length(r))
# Two ranges: added or subtracted as ranges.
_bcr(::typeof(+), a::AbstractRange, b::AbstractRange) = a + b
_bcr(::typeof(-), a::AbstractRange, b::AbstractRange) = a - b
# An integer `StepRangeLen` with an integer range: a `StepRangeLen` from the first elements and
# steps.
function _srl_sum(a::AbstractRange{Int64}, b::AbstractRange{Int64}, sign::Int64)
    _range_lengths(a, b)
    StepRangeLen(first(a) + sign * first(b), step(a) + sign * step(b), length(a))
end
+(a::StepRangeLen{Int64,Int64,Int64,Int64}, b::AbstractRange{Int64}) = _srl_sum(a, b, 1)
+(a::AbstractRange{Int64}, b::StepRangeLen{Int64,Int64,Int64,Int64}) = _srl_sum(a, b, 1)
+(a::StepRangeLen{Int64,Int64,Int64,Int64}, b::StepRangeLen{Int64,Int64,Int64,Int64}) = _srl_sum(a, b, 1)
-(a::StepRangeLen{Int64,Int64,Int64,Int64}, b::AbstractRange{Int64}) = _srl_sum(a, b, -1)
-(a::AbstractRange{Int64}, b::StepRangeLen{Int64,Int64,Int64,Int64}) = _srl_sum(a, b, -1)
-(a::StepRangeLen{Int64,Int64,Int64,Int64}, b::StepRangeLen{Int64,Int64,Int64,Int64}) = _srl_sum(a, b, -1)
-(r::StepRangeLen{Int64,Int64,Int64,Int64}) = StepRangeLen(-r.ref, -r.step, r.len, r.offset)
*(x::Int64, r::StepRangeLen{Int64,Int64,Int64,Int64}) = StepRangeLen(x * r.ref, x * r.step, r.len, r.offset)
*(r::StepRangeLen{Int64,Int64,Int64,Int64}, x::Int64) = StepRangeLen(r.ref * x, r.step * x, r.len, r.offset)

# A float range indexed by an integer range is a range of the same kind, as in Julia: a
# `StepRangeLen` keeps its reference point nearest the old one, in twice precision; a
# `LinRange` runs between the two end elements.
_srl_ref_at(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, i::Int64) = _srl_at_tp(r, i)
_srl_ref_at(r::StepRangeLen{Int64,Int64,Int64,Int64}, i::Int64) = _srl_at(r, i)
_srl_step_times(r::StepRangeLen{Float64,TwicePrecision{Float64},TwicePrecision{Float64},Int64}, k::Int64) = _tp_mul(r.step, k)
_srl_step_times(r::StepRangeLen{Int64,Int64,Int64,Int64}, k::Int64) = r.step * k
function getindex(r::StepRangeLen{T,R,S,Int64}, s::AbstractRange{Int64}) where {T,R,S}
    _range_index_check(r, s)
    len = length(s)
    sstep = step(s)
    offset = max(min(1 + round(Int64, (r.offset - first(s)) / sstep), len), 1)
    ref = _srl_ref_at(r, first(s) + (offset - 1) * sstep)
    StepRangeLen{T,R,S,Int64}(ref, _srl_step_times(r, sstep), len, offset)
end
function getindex(r::LinRange{Float64,Int64}, s::AbstractRange{Int64})
    _range_index_check(r, s)
    len = length(s)
    LinRange{Float64,Int64}(_lin_at(r, first(s)), _lin_at(r, last(s)), len, max(len - 1, 1))
end
