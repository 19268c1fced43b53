# The prelude: Julia's Base, written in the language itself on top of the primitives
# `Core.name(...)` (see crates/ir/src/prim.rs). Reverse- and forward-mode AD differentiate this
# code like user code, so only the primitives need derivative rules.

# ---------------------------------------------------------------------------------------------
# Types used by the library

struct UndefInitializer end
const undef = UndefInitializer()

struct Colon end

struct UnitRange{T} <: AbstractRange{T}
    start::T
    stop::T
end

struct OneTo{T} <: AbstractRange{T}
    stop::T
end

struct StepRange{T,S} <: AbstractRange{T}
    start::T
    step::S
    stop::T
end

struct ErrorException <: Exception
    msg::String
end
struct ArgumentError <: Exception
    msg::String
end
struct AssertionError <: Exception
    msg::String
end
struct DomainError <: Exception
    val
    msg::String
end
struct DivideError <: Exception end
struct DimensionMismatch <: Exception
    msg::String
end

# The state of a reverse-mode rule (used by derived code through `Core.rule_stack` and
# `Core.rule_child`): its stacks and the states of the rules it calls.
mutable struct RuleState
    stacks::Vector{Any}
    children::Vector{Any}
end

struct Enumerate{I}
    itr::I
end
struct Zip2{A,B}
    a::A
    b::B
end
struct Zip3{A,B,C}
    a::A
    b::B
    c::C
end


# ---------------------------------------------------------------------------------------------
# Generic

typeof(x) = Core.typeof(x)
isa(x, T) = Core.isa(x, T)
===(x, y) = Core.egal(x, y)
!==(x, y) = !Core.egal(x, y)
==(x, y) = Core.egal(x, y)
!=(x, y) = !(x == y)
>(x, y) = y < x
>=(x, y) = y <= x
identity(x) = x
isnothing(x) = Core.egal(x, nothing)
ifelse(c::Bool, x, y) = c ? x : y

# ---------------------------------------------------------------------------------------------
# Conversion and promotion

Float64(x::Float64) = x
Float64(x::Int64) = Core.sitofp(Float64, x)
Float64(x::Float32) = Core.fpconvert(Float64, x)
Float64(x::Bool) = x ? 1.0 : 0.0
Float32(x::Float32) = x
Float32(x::Int64) = Core.sitofp(Float32, x)
Float32(x::Float64) = Core.fpconvert(Float32, x)
Float32(x::Bool) = x ? 1.0f0 : 0.0f0
Int64(x::Int64) = x
Int64(x::Float64) = Core.fptosi(Int64, x)
Int64(x::Float32) = Core.fptosi(Int64, x)
Int64(x::Bool) = Core.bool_to_int(x)
Bool(x::Bool) = x
Bool(x::Int64) = Core.int_to_bool(x)
function Bool(x::Float64)
    x == 0.0 && return false
    x == 1.0 && return true
    Core.throw_inexact(Bool, x)
end

convert(::Type{T}, x::T) where {T} = x
convert(::Type{Float64}, x::Real) = Float64(x)
convert(::Type{Float32}, x::Real) = Float32(x)
convert(::Type{Int64}, x::Real) = Int64(x)
convert(::Type{Bool}, x::Real) = Bool(x)
convert(::Type{Any}, x) = x

float(x::Float64) = x
float(x::Float32) = x
float(x::Int64) = Float64(x)
float(x::Bool) = Float64(x)

promote(x::T, y::T) where {T} = (x, y)
function promote(x, y)
    T = Core.promote_type(typeof(x), typeof(y))
    (convert(T, x), convert(T, y))
end
promote_type(S, T) = Core.promote_type(S, T)

# ---------------------------------------------------------------------------------------------
# Int64

+(x::Int64, y::Int64) = Core.add_int(x, y)
-(x::Int64, y::Int64) = Core.sub_int(x, y)
*(x::Int64, y::Int64) = Core.mul_int(x, y)
-(x::Int64) = Core.neg_int(x)
+(x::Number) = x
÷(x::Int64, y::Int64) = Core.sdiv_int(x, y)
div(x::Int64, y::Int64) = Core.sdiv_int(x, y)
%(x::Int64, y::Int64) = Core.srem_int(x, y)
rem(x::Int64, y::Int64) = Core.srem_int(x, y)
function mod(x::Int64, y::Int64)
    r = Core.srem_int(x, y)
    (r != 0 && ((r < 0) != (y < 0))) ? r + y : r
end
fld(x::Int64, y::Int64) = div(x - mod(x, y), y)
cld(x::Int64, y::Int64) = -fld(-x, y)
==(x::Int64, y::Int64) = Core.eq_int(x, y)
!=(x::Int64, y::Int64) = Core.ne_int(x, y)
<(x::Int64, y::Int64) = Core.slt_int(x, y)
<=(x::Int64, y::Int64) = Core.sle_int(x, y)
&(x::Int64, y::Int64) = Core.and_int(x, y)
|(x::Int64, y::Int64) = Core.or_int(x, y)
xor(x::Int64, y::Int64) = Core.xor_int(x, y)
/(x::Int64, y::Int64) = Float64(x) / Float64(y)
function ^(x::Int64, n::Int64)
    if n < 0
        Core.throw_domain(n, string("Cannot raise an integer x to a negative power ", n, ".\nConvert input to float."))
    end
    r = 1
    b = x
    while n > 0
        if n & 1 == 1
            r = r * b
        end
        b = b * b
        n = n ÷ 2
    end
    r
end
abs(x::Int64) = x < 0 ? -x : x
sign(x::Int64) = x > 0 ? 1 : (x < 0 ? -1 : 0)
iseven(x::Int64) = x % 2 == 0
isodd(x::Int64) = x % 2 != 0
max(x::Int64, y::Int64) = x < y ? y : x
min(x::Int64, y::Int64) = y < x ? y : x

# ---------------------------------------------------------------------------------------------
# Bool

!(x::Bool) = Core.not_bool(x)
&(x::Bool, y::Bool) = Core.and_bool(x, y)
|(x::Bool, y::Bool) = Core.or_bool(x, y)
xor(x::Bool, y::Bool) = Core.xor_bool(x, y)
==(x::Bool, y::Bool) = Core.egal(x, y)
<(x::Bool, y::Bool) = Int64(x) < Int64(y)
<=(x::Bool, y::Bool) = Int64(x) <= Int64(y)
+(x::Bool, y::Bool) = Int64(x) + Int64(y)
-(x::Bool, y::Bool) = Int64(x) - Int64(y)
*(x::Bool, y::Bool) = x & y
-(x::Bool) = -Int64(x)
/(x::Bool, y::Bool) = Float64(x) / Float64(y)

# ---------------------------------------------------------------------------------------------
# Floats (Float64 and Float32)

+(x::T, y::T) where {T<:AbstractFloat} = Core.add_float(x, y)
-(x::T, y::T) where {T<:AbstractFloat} = Core.sub_float(x, y)
*(x::T, y::T) where {T<:AbstractFloat} = Core.mul_float(x, y)
/(x::T, y::T) where {T<:AbstractFloat} = Core.div_float(x, y)
-(x::T) where {T<:AbstractFloat} = Core.neg_float(x)
%(x::T, y::T) where {T<:AbstractFloat} = Core.rem_float(x, y)
rem(x::T, y::T) where {T<:AbstractFloat} = Core.rem_float(x, y)
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
eps(::Type{Float64}) = 2.220446049250313e-16
eps(::Type{Float32}) = 1.1920929f-7
abs2(x::Number) = x * x
inv(x::Number) = one(x) / x
muladd(x, y, z) = x * y + z
fma(x, y, z) = x * y + z
adjoint(x::Number) = x
transpose(x::Number) = x
conj(x::Real) = x
real(x::Real) = x

function clamp(x, lo, hi)
    x > hi && return convert(typeof(x), hi)
    x < lo && return convert(typeof(x), lo)
    x
end

# ---------------------------------------------------------------------------------------------
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
sincos(x) = (sin(x), cos(x))

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
exp2(x::Real) = exp2(float(x))
tanh(x::Real) = tanh(float(x))
sinh(x::Real) = sinh(float(x))
cosh(x::Real) = cosh(float(x))
asin(x::Real) = asin(float(x))
acos(x::Real) = acos(float(x))
atan(x::Real) = atan(float(x))

# ---------------------------------------------------------------------------------------------
# Strings and output

*(a::String, b::String) = Core.string_concat(a, b)
length(s::String) = Core.string_len(s)
==(a::String, b::String) = Core.egal(a, b)
string(x) = Core.string(x)
function string(xs...)
    s = ""
    for x in xs
        s = Core.string_concat(s, Core.string(x))
    end
    s
end
repr(x) = Core.repr(x)
print(x) = Core.print(x)
function print(xs...)
    for x in xs
        Core.print(x)
    end
    nothing
end
function println(xs...)
    for x in xs
        Core.print(x)
    end
    Core.print("\n")
    nothing
end
show(x) = Core.show(x)
error(msg::String) = Core.throw_error(msg)
function error(xs...)
    s = ""
    for x in xs
        s = Core.string_concat(s, Core.string(x))
    end
    Core.throw_error(s)
end

# ---------------------------------------------------------------------------------------------
# Tuples

length(t::Tuple) = Core.tuple_len(t)
getindex(t::Tuple, i::Int64) = Core.tuple_getindex(t, i)
iterate_start(t::Tuple) = 1
iterate_done(t::Tuple, i::Int64) = i > Core.tuple_len(t)
iterate_next(t::Tuple, i::Int64) = (Core.tuple_getindex(t, i), i + 1)
first(t::Tuple) = t[1]
isempty(t::Tuple) = Core.tuple_len(t) == 0

# ---------------------------------------------------------------------------------------------
# Ranges

function UnitRange{T}(start, stop) where {T}
    a = convert(T, start)
    b = convert(T, stop)
    Core.new(UnitRange{T}, a, b >= a ? b : a - one(T))
end
(:)(a::Int64, b::Int64) = UnitRange{Int64}(a, b)
function (:)(a::Int64, s::Int64, b::Int64)
    if s == 0
        Core.throw_argument("step cannot be zero")
    end
    last = ((s > 0 && b < a) || (s < 0 && b > a)) ? a - s : b - rem(b - a, s)
    Core.new(StepRange{Int64,Int64}, a, s, last)
end
length(r::UnitRange{Int64}) = r.stop - r.start + 1
length(r::OneTo) = r.stop
first(r::OneTo) = 1
last(r::OneTo) = r.stop
isempty(r::OneTo) = r.stop < 1
function getindex(r::OneTo, i::Int64)
    if i < 1 || i > r.stop
        Core.throw_bounds(r, i)
    end
    i
end
iterate_start(r::OneTo) = 1
iterate_done(r::OneTo, i::Int64) = i > r.stop
iterate_next(r::OneTo, i::Int64) = (i, i + 1)
==(a::OneTo, b::OneTo) = a.stop == b.stop
length(r::StepRange{Int64,Int64}) = div(r.stop - r.start, r.step) + 1
first(r::UnitRange) = r.start
last(r::UnitRange) = r.stop
first(r::StepRange) = r.start
last(r::StepRange) = r.stop
step(r::StepRange) = r.step
step(r::UnitRange{Int64}) = 1
isempty(r::UnitRange) = r.stop < r.start
isempty(r::StepRange) = length(r) == 0
eltype(r::UnitRange{T}) where {T} = T
function getindex(r::UnitRange{Int64}, i::Int64)
    if i < 1 || i > length(r)
        Core.throw_bounds(r, i)
    end
    r.start + i - 1
end
function getindex(r::StepRange{Int64,Int64}, i::Int64)
    if i < 1 || i > length(r)
        Core.throw_bounds(r, i)
    end
    r.start + (i - 1) * r.step
end
lastindex(r::AbstractRange) = length(r)
iterate_start(r::UnitRange{Int64}) = r.start
iterate_done(r::UnitRange{Int64}, i::Int64) = i > r.stop
iterate_next(r::UnitRange{Int64}, i::Int64) = (i, i + 1)
iterate_start(r::StepRange{Int64,Int64}) = r.start
iterate_done(r::StepRange{Int64,Int64}, i::Int64) = r.step > 0 ? i > r.stop : i < r.stop
iterate_next(r::StepRange{Int64,Int64}, i::Int64) = (i, i + r.step)
OneTo(n::Int64) = Core.new(OneTo{Int64}, max(n, 0))
function collect(r::AbstractRange)
    n = length(r)
    a = Vector{Int64}(undef, n)
    k = 1
    for x in r
        a[k] = x
        k += 1
    end
    a
end
function sum(r::UnitRange{Int64})
    s = 0
    for x in r
        s += x
    end
    s
end
==(a::UnitRange, b::UnitRange) = a.start == b.start && a.stop == b.stop

# ---------------------------------------------------------------------------------------------
# Iteration helpers

# A number iterates once, as in Julia.
iterate_start(x::Number) = false
iterate_done(x::Number, done::Bool) = done
iterate_next(x::Number, done::Bool) = (x, true)
length(x::Number) = 1
# A number is a zero-dimensional container of itself (`x[1] == x`).
size(x::Number) = ()
ndims(x::Number) = 0
isempty(x::Number) = false
first(x::Number) = x
last(x::Number) = x
getindex(x::Number) = x
function getindex(x::Number, i::Int64)
    i == 1 || Core.throw_bounds(x, i)
    x
end

enumerate(x) = Enumerate(x)
iterate_start(e::Enumerate) = (1, iterate_start(e.itr))
iterate_done(e::Enumerate, st) = iterate_done(e.itr, st[2])
function iterate_next(e::Enumerate, st)
    p = iterate_next(e.itr, st[2])
    ((st[1], p[1]), (st[1] + 1, p[2]))
end
zip(a, b) = Zip2(a, b)
zip(a, b, c) = Zip3(a, b, c)
iterate_start(z::Zip2) = (iterate_start(z.a), iterate_start(z.b))
iterate_done(z::Zip2, st) = iterate_done(z.a, st[1]) || iterate_done(z.b, st[2])
function iterate_next(z::Zip2, st)
    p = iterate_next(z.a, st[1])
    q = iterate_next(z.b, st[2])
    ((p[1], q[1]), (p[2], q[2]))
end
iterate_start(z::Zip3) = (iterate_start(z.a), iterate_start(z.b), iterate_start(z.c))
iterate_done(z::Zip3, st) = iterate_done(z.a, st[1]) || iterate_done(z.b, st[2]) || iterate_done(z.c, st[3])
function iterate_next(z::Zip3, st)
    p = iterate_next(z.a, st[1])
    q = iterate_next(z.b, st[2])
    r = iterate_next(z.c, st[3])
    ((p[1], q[1], r[1]), (p[2], q[2], r[2]))
end

# ---------------------------------------------------------------------------------------------
# Arrays

Vector{T}(::UndefInitializer, n::Int64) where {T} = Core.array_new(Vector{T}, n)
Matrix{T}(::UndefInitializer, m::Int64, n::Int64) where {T} = Core.array_new(Matrix{T}, m, n)
Array{T,1}(::UndefInitializer, n::Int64) where {T} = Core.array_new(Vector{T}, n)
Array{T,2}(::UndefInitializer, m::Int64, n::Int64) where {T} = Core.array_new(Matrix{T}, m, n)
Array{T,3}(::UndefInitializer, a::Int64, b::Int64, c::Int64) where {T} = Core.array_new(Array{T,3}, a, b, c)

length(a::Array) = Core.arraylen(a)
size(a::Array{T,1}) where {T} = (Core.arraysize(a, 1),)
size(a::Array{T,2}) where {T} = (Core.arraysize(a, 1), Core.arraysize(a, 2))
size(a::Array{T,3}) where {T} = (Core.arraysize(a, 1), Core.arraysize(a, 2), Core.arraysize(a, 3))
size(a::Array, d::Int64) = Core.arraysize(a, d)
ndims(a::Array{T,N}) where {T,N} = N
eltype(a::Array{T,N}) where {T,N} = T
eltype(::Type{Array{T,N}}) where {T,N} = T
isempty(a::Array) = Core.arraylen(a) == 0
axes(a::Array{T,1}) where {T} = (OneTo(Core.arraylen(a)),)
axes(a::Array{T,2}) where {T} = (OneTo(Core.arraysize(a, 1)), OneTo(Core.arraysize(a, 2)))
axes(a::Array, d::Int64) = OneTo(Core.arraysize(a, d))
eachindex(a::Array) = OneTo(Core.arraylen(a))
eachindex(a::Array, b::Array) = OneTo(Core.arraylen(a))
lastindex(a::Array) = Core.arraylen(a)
lastindex(a::Array, d::Int64) = Core.arraysize(a, d)
firstindex(a::Array) = 1
first(a::Array) = a[1]
last(a::Array) = a[Core.arraylen(a)]

getindex(a::Array, i::Int64) = Core.arrayref(a, i)
getindex(a::Array, i::Int64, j::Int64) = Core.arrayref(a, i, j)
getindex(a::Array, i::Int64, j::Int64, k::Int64) = Core.arrayref(a, i, j, k)
setindex!(a::Array{T,N}, v, i::Int64) where {T,N} = Core.arrayset(a, convert(T, v), i)
setindex!(a::Array{T,N}, v, i::Int64, j::Int64) where {T,N} = Core.arrayset(a, convert(T, v), i, j)
setindex!(a::Array{T,N}, v, i::Int64, j::Int64, k::Int64) where {T,N} = Core.arrayset(a, convert(T, v), i, j, k)

# Slices (copies, as in Julia).
function getindex(a::Vector{T}, r::UnitRange{Int64}) where {T}
    n = length(r)
    if n > 0 && (r.start < 1 || r.stop > length(a))
        Core.throw_bounds(a, r)
    end
    b = Vector{T}(undef, n)
    for k in 1:n
        b[k] = a[r.start + k - 1]
    end
    b
end
function getindex(a::Vector{T}, r::StepRange{Int64,Int64}) where {T}
    n = length(r)
    # Checked before allocating, as Julia does (`x[1:2:typemax(Int)]` is a BoundsError).
    if n > 0 && (min(r.start, r.stop) < 1 || max(r.start, r.stop) > length(a))
        Core.throw_bounds(a, r)
    end
    b = Vector{T}(undef, n)
    k = 1
    for i in r
        b[k] = a[i]
        k += 1
    end
    b
end
getindex(a::Vector, ::Colon) = copy(a)

# Indexing with ranges, colons, vectors of indices and logical masks, as Julia's
# `to_indices`: the positions an index selects along a dimension of extent `n`.
_to_index(i::Int64, n::Int64) = i:i
_to_index(::Colon, n::Int64) = 1:n
_to_index(::typeof(:), n::Int64) = 1:n
_to_index(r::UnitRange{Int64}, n::Int64) = r
_to_index(r::StepRange{Int64,Int64}, n::Int64) = r
_to_index(v::AbstractVector{Int64}, n::Int64) = v
function _to_index(mask::Vector{Bool}, n::Int64)
    out = Int64[]
    for k in 1:length(mask)
        if mask[k]
            push!(out, k)
        end
    end
    out
end
# Whether positions `idx` (or the mask `I`) fit in a dimension of extent `n`.
function _in_bounds(I, idx, n::Int64)
    for p in idx
        if p < 1 || p > n
            return false
        end
    end
    true
end
_in_bounds(mask::Vector{Bool}, idx, n::Int64) = length(mask) == n

# The array `A[I, J]` makes: a scalar index drops its dimension.
_selection(::Type{T}, I::Int64, J, m::Int64, n::Int64) where {T} = Vector{T}(undef, n)
_selection(::Type{T}, I, J::Int64, m::Int64, n::Int64) where {T} = Vector{T}(undef, m)
_selection(::Type{T}, I, J, m::Int64, n::Int64) where {T} = Matrix{T}(undef, m, n)

function getindex(a::Vector{T}, I::AbstractVector{Int64}) where {T}
    _in_bounds(I, I, length(a)) || Core.throw_bounds(a, I)
    b = Vector{T}(undef, length(I))
    for k in 1:length(I)
        b[k] = a[I[k]]
    end
    b
end
function getindex(a::Vector{T}, mask::Vector{Bool}) where {T}
    length(mask) == length(a) || Core.throw_bounds(a, mask)
    getindex(a, _to_index(mask, length(a)))
end
getindex(A::Matrix, i::Int64, j::Int64) = Core.arrayref(A, i, j)
function getindex(A::Matrix{T}, I, J) where {T}
    ii = _to_index(I, size(A, 1))
    jj = _to_index(J, size(A, 2))
    if !_in_bounds(I, ii, size(A, 1)) || !_in_bounds(J, jj, size(A, 2))
        Core.throw_bounds(A, (I, J))
    end
    B = _selection(T, I, J, length(ii), length(jj))
    k = 1
    for j in jj, i in ii
        B[k] = A[i, j]
        k += 1
    end
    B
end

# `A[I...] = X`: the elements of X, in order, into the selected places; X's shape must be the
# selection's up to singleton dimensions (Julia's `setindex_shape_check`).
function _setindex_shape_check(X, lens)
    n = 1
    for l in lens
        n *= l
    end
    ok = length(X) == n
    if ok && ndims(X) > 1
        # Non-singleton extents must agree in order.
        xs = Int64[]
        for d in 1:ndims(X)
            size(X, d) == 1 || push!(xs, size(X, d))
        end
        ls = Int64[]
        for l in lens
            l == 1 || push!(ls, l)
        end
        ok = xs == ls
    end
    if !ok
        if length(lens) == 1
            throw(DimensionMismatch(string("tried to assign ", length(X), " elements to ", lens[1], " destinations")))
        end
        throw(DimensionMismatch(string("tried to assign ", _dims_string(size(X)), " array to ", _dims_string(lens), " destination")))
    end
end
function _dims_string(d)
    if length(d) == 1
        return string(d[1], "-element")
    end
    s = string(d[1])
    for k in 2:length(d)
        s = string(s, "×", d[k])
    end
    s
end
_single_value_error() = throw(ArgumentError("indexed assignment with a single value to possibly many locations is not supported; perhaps use broadcasting `.=` instead?"))

setindex!(a::Vector, x, I::AbstractRange) = _setindex_selection!(a, x, I)
setindex!(a::Vector, x, I::Vector) = _setindex_selection!(a, x, I)
setindex!(a::Vector, x, I::Colon) = _setindex_selection!(a, x, I)
_setindex_selection!(a::Vector, x, I) = _single_value_error()
function _setindex_selection!(a::Vector, X0::AbstractArray, I)
    idx = _to_index(I, length(a))
    _in_bounds(I, idx, length(a)) || Core.throw_bounds(a, I)
    _setindex_shape_check(X0, (length(idx),))
    X = _unalias(a, X0)
    k = 1
    for p in idx
        a[p] = X[k]
        k += 1
    end
    a
end
# `A[I, J] = X`, dropping the extents of scalar indices from the shape X must have.
_lens(I::Int64, J::Int64, m::Int64, n::Int64) = ()
_lens(I::Int64, J, m::Int64, n::Int64) = (n,)
_lens(I, J::Int64, m::Int64, n::Int64) = (m,)
_lens(I, J, m::Int64, n::Int64) = (m, n)
setindex!(A::Matrix{T}, x, i::Int64, j::Int64) where {T} = Core.arrayset(A, convert(T, x), i, j)
setindex!(A::Matrix, x, I, J) = _setindex_selection!(A, x, I, J)
_setindex_selection!(A::Matrix, x, I, J) = _single_value_error()
function _setindex_selection!(A::Matrix, X0::AbstractArray, I, J)
    ii = _to_index(I, size(A, 1))
    jj = _to_index(J, size(A, 2))
    if !_in_bounds(I, ii, size(A, 1)) || !_in_bounds(J, jj, size(A, 2))
        Core.throw_bounds(A, (I, J))
    end
    _setindex_shape_check(X0, _lens(I, J, length(ii), length(jj)))
    X = _unalias(A, X0)
    k = 1
    for j in jj, i in ii
        A[i, j] = X[k]
        k += 1
    end
    A
end

# `y[I...] .= rhs` broadcasts into the selected places of `y`, as Julia's `dotview`: into a
# view of `y` (into the element itself for one number per dimension: an error unless the
# element is an array).
_dotview(y, I...) = _maybeview(y, I...)

iterate_start(a::Array) = 1
iterate_done(a::Array, i::Int64) = i > Core.arraylen(a)
iterate_next(a::Array, i::Int64) = (Core.arrayref(a, i), i + 1)

copy(a::Array) = Core.array_copy(a)
similar(a::Array{T,1}) where {T} = Vector{T}(undef, length(a))
similar(a::Array{T,2}) where {T} = Matrix{T}(undef, size(a, 1), size(a, 2))
similar(a::Array{T,1}, ::Type{S}) where {T,S} = Vector{S}(undef, length(a))
reshape(a::Array, m::Int64, n::Int64) = Core.array_reshape(a, m, n)
reshape(a::Array, n::Int64) = Core.array_reshape(a, n)
vec(a::Vector) = a
vec(a::Array) = Core.array_reshape(a, length(a))

function fill!(a::Array{T,N}, x) where {T,N}
    v = convert(T, x)
    for i in 1:length(a)
        Core.arrayset(a, v, i)
    end
    a
end
fill(x, n::Int64) = fill!(Vector{typeof(x)}(undef, n), x)
fill(x, m::Int64, n::Int64) = fill!(Matrix{typeof(x)}(undef, m, n), x)
zeros(n::Int64) = fill!(Vector{Float64}(undef, n), 0.0)
zeros(m::Int64, n::Int64) = fill!(Matrix{Float64}(undef, m, n), 0.0)
zeros(::Type{T}, n::Int64) where {T} = fill!(Vector{T}(undef, n), zero(T))
zeros(a::Int64, b::Int64, c::Int64) = fill!(Array{Float64,3}(undef, a, b, c), 0.0)
zeros(::Type{T}, m::Int64, n::Int64) where {T} = fill!(Matrix{T}(undef, m, n), zero(T))
ones(n::Int64) = fill!(Vector{Float64}(undef, n), 1.0)
ones(m::Int64, n::Int64) = fill!(Matrix{Float64}(undef, m, n), 1.0)
# Dimensions as a tuple.
fill(x, d::Tuple{Int64}) = fill(x, d[1])
fill(x, d::Tuple{Int64,Int64}) = fill(x, d[1], d[2])
zeros(d::Tuple{Int64}) = zeros(d[1])
zeros(d::Tuple{Int64,Int64}) = zeros(d[1], d[2])
zeros(::Type{T}, d::Tuple{Int64}) where {T} = zeros(T, d[1])
zeros(::Type{T}, d::Tuple{Int64,Int64}) where {T} = zeros(T, d[1], d[2])
ones(d::Tuple{Int64}) = ones(d[1])
ones(d::Tuple{Int64,Int64}) = ones(d[1], d[2])
ones(::Type{T}, n::Int64) where {T} = fill!(Vector{T}(undef, n), one(T))
ones(::Type{T}, m::Int64, n::Int64) where {T} = fill!(Matrix{T}(undef, m, n), one(T))

push!(a::Vector{T}, x) where {T} = Core.array_push(a, convert(T, x))
pop!(a::Vector) = Core.array_pop(a)
resize!(a::Vector, n::Int64) = Core.array_resize(a, n)
function append!(a::Vector, b)
    for x in b
        push!(a, x)
    end
    a
end

# Array literals.
function vect(xs...)
    T = Core.promote_eltype(xs)
    n = Core.tuple_len(xs)
    a = Vector{T}(undef, n)
    for i in 1:n
        a[i] = Core.tuple_getindex(xs, i)
    end
    a
end
function getindex(::Type{T}, xs...) where {T}
    n = Core.tuple_len(xs)
    a = Vector{T}(undef, n)
    for i in 1:n
        a[i] = Core.tuple_getindex(xs, i)
    end
    a
end
# Concatenation, as Julia's `hcat`, `vcat` and `hvcat` (the syntax `[a b]`, `[a; b]` and
# `[a b; c d]`): numbers are 1×1 blocks and vectors are columns.
_cat_rows(x) = 1
_cat_rows(x::Array) = size(x, 1)
_cat_cols(x) = 1
_cat_cols(x::Vector) = 1
_cat_cols(x::Matrix) = size(x, 2)
_cat_cols(x::Array) = error("not supported yet: concatenating arrays of more than two dimensions")
_cat_isnumber(x) = true
_cat_isnumber(x::Array) = false
function _cat_count(xs, isnumber::Bool)
    c = 0
    for k in 1:Core.tuple_len(xs)
        if _cat_isnumber(Core.tuple_getindex(xs, k)) == isnumber
            c += 1
        end
    end
    c
end
# `(2, 3)`: the size along `d` of each of `xs[lo:hi]`, as a tuple would print.
function _cat_sizes(xs, d::Int64, lo::Int64, hi::Int64)
    s = "("
    for k in lo:hi
        x = Core.tuple_getindex(xs, k)
        s = string(s, d == 1 ? _cat_rows(x) : _cat_cols(x), k < hi ? ", " : (lo == hi ? ",)" : ")"))
    end
    s
end
# Writes the block `x` into `A` with its first element at `(r, c)`.
function _cat_set!(A::Matrix, r::Int64, c::Int64, x)
    A[r, c] = x
    A
end
function _cat_set!(A::Matrix, r::Int64, c::Int64, x::Vector)
    for i in 1:length(x)
        A[r + i - 1, c] = x[i]
    end
    A
end
function _cat_set!(A::Matrix, r::Int64, c::Int64, x::Matrix)
    for j in 1:size(x, 2), i in 1:size(x, 1)
        A[r + i - 1, c + j - 1] = x[i, j]
    end
    A
end
# Checks that `xs[lo:hi]` have the same extent along `d` (1: rows, 2: columns), with the
# messages of Julia's `hcat`/`vcat` of arrays and of its general `cat` when numbers are among
# them.
function _cat_check(xs, d::Int64, lo::Int64, hi::Int64)
    x1 = Core.tuple_getindex(xs, lo)
    want = d == 1 ? _cat_rows(x1) : _cat_cols(x1)
    arrays = true
    for k in lo:hi
        arrays = arrays && !_cat_isnumber(Core.tuple_getindex(xs, k))
    end
    for k in lo:hi
        x = Core.tuple_getindex(xs, k)
        got = d == 1 ? _cat_rows(x) : _cat_cols(x)
        if got != want
            if arrays
                what = d == 1 ? "rows" : "columns"
                throw(DimensionMismatch(string("number of ", what, " of each array must match (got ", _cat_sizes(xs, d, lo, hi), ")")))
            end
            throw(DimensionMismatch(string("mismatch in dimension ", d, " (expected ", want, " got ", got, ")")))
        end
    end
    want
end
# `hcat(xs[lo:hi]...)` into `A` at row `r`, column `c`; the number of columns written.
function _hcat_into!(A::Matrix, r::Int64, c::Int64, xs, lo::Int64, hi::Int64)
    c0 = c
    for k in lo:hi
        x = Core.tuple_getindex(xs, k)
        _cat_set!(A, r, c, x)
        c += _cat_cols(x)
    end
    c - c0
end
function _hcat_width(xs, lo::Int64, hi::Int64)
    w = 0
    for k in lo:hi
        w += _cat_cols(Core.tuple_getindex(xs, k))
    end
    w
end

hcat(xs...) = typed_hcat(Core.cat_eltype(xs), xs...)
typed_hcat(::Type{T}, xs...) where {T} = _hcat(T, xs)
_hcat(::Type{T}, xs::Tuple{}) where {T} = Vector{T}(undef, 0)
function _hcat(::Type{T}, xs) where {T}
    n = Core.tuple_len(xs)
    m = _cat_check(xs, 1, 1, n)
    A = Matrix{T}(undef, m, _hcat_width(xs, 1, n))
    _hcat_into!(A, 1, 1, xs, 1, n)
    A
end

vcat(xs...) = typed_vcat(Core.cat_eltype(xs), xs...)
typed_vcat(::Type{T}, xs...) where {T} = _vcat_into(Core.vcat_type(T, xs), xs)
function _vcat_into(::Type{Vector{T}}, xs) where {T}
    n = Core.tuple_len(xs)
    len = 0
    for k in 1:n
        len += length(Core.tuple_getindex(xs, k))
    end
    a = Vector{T}(undef, len)
    i = 1
    for k in 1:n
        i = _vcat_set!(a, i, Core.tuple_getindex(xs, k))
    end
    a
end
function _vcat_set!(a::Vector, i::Int64, x)
    a[i] = x
    i + 1
end
function _vcat_set!(a::Vector, i::Int64, x::Vector)
    for j in 1:length(x)
        a[i + j - 1] = x[j]
    end
    i + length(x)
end
function _vcat_into(::Type{Matrix{T}}, xs) where {T}
    n = Core.tuple_len(xs)
    nc = _cat_check(xs, 2, 1, n)
    nr = 0
    for k in 1:n
        nr += _cat_rows(Core.tuple_getindex(xs, k))
    end
    A = Matrix{T}(undef, nr, nc)
    r = 1
    for k in 1:n
        x = Core.tuple_getindex(xs, k)
        _cat_set!(A, r, 1, x)
        r += _cat_rows(x)
    end
    A
end

hvcat(rows::Tuple, xs::Number...) = typed_hvcat(Core.cat_eltype(xs), rows, xs...)
hvcat(rows::Tuple, xs...) = typed_hvcat(Core.cat_eltype(xs), rows, xs...)
function typed_hvcat(::Type{T}, rows::Tuple, xs::Number...) where {T}
    nr = length(rows)
    nc = rows[1]
    for i in 2:nr
        if rows[i] != nc
            throw(DimensionMismatch(string("row ", i, " has mismatched number of columns (expected ", nc, ", got ", rows[i], ")")))
        end
    end
    n = Core.tuple_len(xs)
    if nr * nc != n
        throw(ArgumentError(string("argument count ", n, " does not match specified shape (", nr, ", ", nc, ")")))
    end
    A = Matrix{T}(undef, nr, nc)
    k = 1
    for i in 1:nr, j in 1:nc
        A[i, j] = Core.tuple_getindex(xs, k)
        k += 1
    end
    A
end
# Blocks: each block row is concatenated horizontally, then the rows vertically; with arrays
# only, the checks and messages of Julia's block method.
function typed_hvcat(::Type{T}, rows::Tuple, xs...) where {T}
    nbr = length(rows)
    n = Core.tuple_len(xs)
    total = 0
    for i in 1:nbr
        total += rows[i]
    end
    if total != n
        throw(ArgumentError(string("argument count ", n, " does not match specified shape (expected ", total, ")")))
    end
    arrays = _cat_count(xs, true) == 0
    nc = _hcat_width(xs, 1, rows[1])
    nr = 0
    a = 1
    widths_differ = false
    for i in 1:nbr
        hi = a + rows[i] - 1
        h = arrays ? _cat_rows(Core.tuple_getindex(xs, a)) : _cat_check(xs, 1, a, hi)
        w = _hcat_width(xs, a, hi)
        if arrays
            for j in a:hi
                hj = _cat_rows(Core.tuple_getindex(xs, j))
                if hj != h
                    throw(DimensionMismatch(string("mismatched height in block row ", i, " (expected ", h, ", got ", hj, ")")))
                end
            end
            if w != nc
                throw(DimensionMismatch(string("block row ", i, " has mismatched number of columns (expected ", nc, ", got ", w, ")")))
            end
        end
        widths_differ = widths_differ || w != nc
        nr += h
        a += rows[i]
    end
    if widths_differ
        # The rows, each concatenated into a matrix, are then concatenated vertically.
        s = "("
        a = 1
        for i in 1:nbr
            s = string(s, _hcat_width(xs, a, a + rows[i] - 1), i < nbr ? ", " : ")")
            a += rows[i]
        end
        throw(DimensionMismatch(string("number of columns of each array must match (got ", s, ")")))
    end
    A = Matrix{T}(undef, nr, nc)
    a = 1
    r = 1
    for i in 1:nbr
        _hcat_into!(A, r, 1, xs, a, a + rows[i] - 1)
        r += _cat_rows(Core.tuple_getindex(xs, a))
        a += rows[i]
    end
    A
end

function ==(a::Array, b::Array)
    size(a) == size(b) || return false
    for i in 1:length(a)
        a[i] == b[i] || return false
    end
    true
end
==(a::Tuple, b::Tuple) = tuple_eq(a, b)
function tuple_eq(a, b)
    length(a) == length(b) || return false
    for i in 1:length(a)
        a[i] == b[i] || return false
    end
    true
end

# Reductions.
# As Julia's reductions: the first element starts the sum (so `sum(Real[1, 2.5])` needs no
# `zero(Real)`, and `sum([-0.0]) === -0.0`); a sum of `Bool`s is an `Int64`.
_sum_first(x) = x
_sum_first(x::Bool) = Int64(x)
function _sum_all(a::AbstractArray{T,N}) where {T,N}
    n = length(a)
    if n == 0
        return _sum_first(zero(T))
    end
    s = _sum_first(a[1])
    for i in 2:n
        s += a[i]
    end
    s
end
function _prod_all(a::AbstractArray{T,N}) where {T,N}
    n = length(a)
    if n == 0
        return one(T)
    end
    s = a[1]
    for i in 2:n
        s *= a[i]
    end
    s
end
function _maximum_all(a::AbstractArray)
    isempty(a) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    m = a[1]
    for i in 2:length(a)
        m = max(m, a[i])
    end
    m
end
function _minimum_all(a::AbstractArray)
    isempty(a) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    m = a[1]
    for i in 2:length(a)
        m = min(m, a[i])
    end
    m
end
function maximum(r::UnitRange{Int64})
    isempty(r) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    r.stop
end
function minimum(r::UnitRange{Int64})
    isempty(r) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    r.start
end
function in(x, a)
    for y in a
        y == x && return true
    end
    false
end

# LinearAlgebra.
function dot(x::AbstractVector, y::AbstractVector)
    if length(x) != length(y)
        throw(DimensionMismatch(string("first array has length ", length(x), " which does not match the length of the second, ", length(y), ".")))
    end
    s = zero(eltype(x)) * zero(eltype(y))
    for i in 1:length(x)
        s += x[i] * y[i]
    end
    s
end
norm(x::AbstractVector) = sqrt(dot(x, x))
# The Frobenius norm of a matrix.
function norm(A::AbstractMatrix)
    s = zero(eltype(A)) * zero(eltype(A))
    for k in 1:length(A)
        s += A[k] * A[k]
    end
    sqrt(s)
end

# Generic fallbacks of the array interface for array types defined by `size` and `getindex`
# (views, adjoints, user-defined arrays): Julia's `AbstractArray` methods.
length(a::AbstractArray) = _prod_dims(size(a))
_prod_dims(d::Tuple{Int64}) = d[1]
_prod_dims(d::Tuple{Int64,Int64}) = d[1] * d[2]
_prod_dims(d::Tuple{Int64,Int64,Int64}) = d[1] * d[2] * d[3]
isempty(a::AbstractArray) = length(a) == 0
axes(a::AbstractArray{T,1}) where {T} = (OneTo(size(a, 1)),)
axes(a::AbstractArray{T,2}) where {T} = (OneTo(size(a, 1)), OneTo(size(a, 2)))
axes(a::AbstractArray, d::Int64) = OneTo(size(a, d))
eachindex(a::AbstractArray) = OneTo(length(a))
firstindex(a::AbstractArray) = 1
lastindex(a::AbstractArray) = length(a)
lastindex(a::AbstractArray, d::Int64) = size(a, d)
first(a::AbstractArray) = a[1]
last(a::AbstractArray) = a[length(a)]
iterate_start(a::AbstractArray) = 1
iterate_done(a::AbstractArray, k::Int64) = k > length(a)
iterate_next(a::AbstractArray, k::Int64) = (a[k], k + 1)
# Linear indexing of a two-dimensional array: column-major.
function getindex(A::AbstractMatrix, k::Int64)
    if k < 1 || k > length(A)
        Core.throw_bounds(A, k)
    end
    m = size(A, 1)
    A[1 + rem(k - 1, m), 1 + div(k - 1, m)]
end
function setindex!(A::AbstractMatrix, x, k::Int64)
    if k < 1 || k > length(A)
        Core.throw_bounds(A, k)
    end
    m = size(A, 1)
    A[1 + rem(k - 1, m), 1 + div(k - 1, m)] = x
end
function collect(a::AbstractArray{T,1}) where {T}
    out = Vector{T}(undef, length(a))
    for k in 1:length(a)
        out[k] = a[k]
    end
    out
end
function collect(a::AbstractArray{T,2}) where {T}
    out = Matrix{T}(undef, size(a, 1), size(a, 2))
    for k in 1:length(a)
        out[k] = a[k]
    end
    out
end
similar(a::AbstractArray{T,1}) where {T} = Vector{T}(undef, size(a, 1))
similar(a::AbstractArray{T,2}) where {T} = Matrix{T}(undef, size(a, 1), size(a, 2))
similar(a::AbstractArray{T,1}, ::Type{S}) where {T,S} = Vector{S}(undef, size(a, 1))
similar(a::AbstractArray{T,2}, ::Type{S}) where {T,S} = Matrix{S}(undef, size(a, 1), size(a, 2))
function ==(a::AbstractArray, b::AbstractArray)
    size(a) == size(b) || return false
    for i in 1:length(a)
        a[i] == b[i] || return false
    end
    true
end

# Adjoint and transpose (LinearAlgebra): lazy wrappers. `x'` of a vector is its 1×n row, `A'`
# of a matrix its transpose; both read and write their parent's memory.
struct Adjoint{T,S} <: AbstractMatrix{T}
    parent::S
end
struct Transpose{T,S} <: AbstractMatrix{T}
    parent::S
end
adjoint(x::AbstractVector{T}) where {T} = Adjoint{T,typeof(x)}(x)
adjoint(A::AbstractMatrix{T}) where {T} = Adjoint{T,typeof(A)}(A)
adjoint(A::Adjoint) = A.parent
transpose(x::AbstractVector{T}) where {T} = Transpose{T,typeof(x)}(x)
transpose(A::AbstractMatrix{T}) where {T} = Transpose{T,typeof(A)}(A)
transpose(A::Transpose) = A.parent
parent(A::Adjoint) = A.parent
parent(A::Transpose) = A.parent
size(A::Adjoint{T,S}) where {T,S<:AbstractVector} = (1, length(A.parent))
size(A::Adjoint{T,S}) where {T,S<:AbstractMatrix} = (size(A.parent, 2), size(A.parent, 1))
size(A::Transpose{T,S}) where {T,S<:AbstractVector} = (1, length(A.parent))
size(A::Transpose{T,S}) where {T,S<:AbstractMatrix} = (size(A.parent, 2), size(A.parent, 1))
# (Without building the size tuple: indexing checks bounds through these.)
size(A::Adjoint{T,S}, d::Int64) where {T,S<:AbstractVector} = d == 2 ? length(A.parent) : 1
size(A::Adjoint{T,S}, d::Int64) where {T,S<:AbstractMatrix} = d == 1 ? size(A.parent, 2) : (d == 2 ? size(A.parent, 1) : 1)
size(A::Transpose{T,S}, d::Int64) where {T,S<:AbstractVector} = d == 2 ? length(A.parent) : 1
size(A::Transpose{T,S}, d::Int64) where {T,S<:AbstractMatrix} = d == 1 ? size(A.parent, 2) : (d == 2 ? size(A.parent, 1) : 1)
length(A::Adjoint) = length(A.parent)
length(A::Transpose) = length(A.parent)
function _adj_check(A, i::Int64, j::Int64)
    if i < 1 || j < 1 || i > size(A, 1) || j > size(A, 2)
        Core.throw_bounds(A, (i, j))
    end
end
function getindex(A::Adjoint{T,S}, i::Int64, j::Int64) where {T,S<:AbstractVector}
    _adj_check(A, i, j)
    adjoint(A.parent[j])
end
function getindex(A::Adjoint{T,S}, i::Int64, j::Int64) where {T,S<:AbstractMatrix}
    _adj_check(A, i, j)
    adjoint(A.parent[j, i])
end
function getindex(A::Transpose{T,S}, i::Int64, j::Int64) where {T,S<:AbstractVector}
    _adj_check(A, i, j)
    transpose(A.parent[j])
end
function getindex(A::Transpose{T,S}, i::Int64, j::Int64) where {T,S<:AbstractMatrix}
    _adj_check(A, i, j)
    transpose(A.parent[j, i])
end
function setindex!(A::Adjoint{T,S}, x, i::Int64, j::Int64) where {T,S<:AbstractVector}
    _adj_check(A, i, j)
    A.parent[j] = adjoint(x)
    A
end
function setindex!(A::Adjoint{T,S}, x, i::Int64, j::Int64) where {T,S<:AbstractMatrix}
    _adj_check(A, i, j)
    A.parent[j, i] = adjoint(x)
    A
end
function setindex!(A::Transpose{T,S}, x, i::Int64, j::Int64) where {T,S<:AbstractVector}
    _adj_check(A, i, j)
    A.parent[j] = transpose(x)
    A
end
function setindex!(A::Transpose{T,S}, x, i::Int64, j::Int64) where {T,S<:AbstractMatrix}
    _adj_check(A, i, j)
    A.parent[j, i] = transpose(x)
    A
end
# A row vector indexed linearly reads its parent's element.
function _adj_check(A, k::Int64)
    if k < 1 || k > length(A)
        Core.throw_bounds(A, k)
    end
end
function getindex(A::Adjoint{T,S}, k::Int64) where {T,S<:AbstractVector}
    _adj_check(A, k)
    adjoint(A.parent[k])
end
function getindex(A::Transpose{T,S}, k::Int64) where {T,S<:AbstractVector}
    _adj_check(A, k)
    transpose(A.parent[k])
end
# `copy` of a row vector is a row vector of a copy; of a matrix, the transposed matrix.
copy(A::Adjoint{T,S}) where {T,S<:AbstractVector} = adjoint(copy(A.parent))
copy(A::Transpose{T,S}) where {T,S<:AbstractVector} = transpose(copy(A.parent))
copy(A::Adjoint{T,S}) where {T,S<:AbstractMatrix} = collect(A)
copy(A::Transpose{T,S}) where {T,S<:AbstractMatrix} = collect(A)

# Products. A row vector times a vector is their dot product; a vector times a row vector
# their outer product; the rest are matrix products, computed from the elements.
*(x::Adjoint{T,S}, y::AbstractVector) where {T,S<:AbstractVector} = dot(x.parent, y)
*(x::Transpose{T,S}, y::AbstractVector) where {T,S<:AbstractVector} = dot(x.parent, y)
*(x::Adjoint{T,S}, A::AbstractMatrix) where {T,S<:AbstractVector} = adjoint(adjoint(A) * x.parent)
*(x::Transpose{T,S}, A::AbstractMatrix) where {T,S<:AbstractVector} = transpose(transpose(A) * x.parent)
function _mul_mismatch(A, B)
    throw(DimensionMismatch(string("matrix A has dimensions (", size(A, 1), ",", size(A, 2), "), matrix B has dimensions (", size(B, 1), ",", size(B, 2), ")")))
end
function *(A::AbstractMatrix, x::AbstractVector)
    m = size(A, 1)
    n = size(A, 2)
    if n != length(x)
        throw(DimensionMismatch(string("matrix A has dimensions (", m, ",", n, "), vector B has length ", length(x))))
    end
    y = zeros(Core.promote_type(eltype(A), eltype(x)), m)
    for j in 1:n
        for i in 1:m
            y[i] += A[i, j] * x[j]
        end
    end
    y
end
function *(A::AbstractMatrix, B::AbstractMatrix)
    m = size(A, 1)
    k = size(A, 2)
    n = size(B, 2)
    k == size(B, 1) || _mul_mismatch(A, B)
    C = zeros(Core.promote_type(eltype(A), eltype(B)), m, n)
    for j in 1:n
        for l in 1:k
            for i in 1:m
                C[i, j] += A[i, l] * B[l, j]
            end
        end
    end
    C
end
# A vector is an n×1 matrix here.
function *(x::AbstractVector, B::AbstractMatrix)
    m = length(x)
    n = size(B, 2)
    if size(B, 1) != 1
        throw(DimensionMismatch(string("matrix A has dimensions (", m, ",1), matrix B has dimensions (", size(B, 1), ",", n, ")")))
    end
    C = Matrix{Core.promote_type(eltype(x), eltype(B))}(undef, m, n)
    for j in 1:n
        for i in 1:m
            C[i, j] = x[i] * B[1, j]
        end
    end
    C
end

# Whole-array arithmetic (Julia's arraymath.jl): `+` and `-` of arrays of one shape (trailing
# dimensions of length 1 aside), negation, and multiples and quotients by a number, each an
# elementwise broadcast.
function _axes_string(a::AbstractArray)
    n = ndims(a)
    s = "("
    for d in 1:n
        s = string(s, "Base.OneTo(", size(a, d), ")", d < n ? ", " : "")
    end
    n == 1 ? string(s, ",)") : string(s, ")")
end
function _promote_shape(a::AbstractArray, b::AbstractArray)
    if ndims(a) < ndims(b)
        return _promote_shape(b, a)
    end
    for i in 1:ndims(b)
        if size(a, i) != size(b, i)
            throw(DimensionMismatch(string("dimensions must match: a has dims ", _axes_string(a), ", b has dims ", _axes_string(b), ", mismatch at ", i)))
        end
    end
    for i in (ndims(b) + 1):ndims(a)
        if size(a, i) != 1
            throw(DimensionMismatch(string("dimensions must match: a has dims ", _axes_string(a), ", must have singleton at dim ", i)))
        end
    end
    nothing
end
function +(A::AbstractArray, B::AbstractArray)
    _promote_shape(A, B)
    broadcast(+, A, B)
end
function -(A::AbstractArray, B::AbstractArray)
    _promote_shape(A, B)
    broadcast(-, A, B)
end
-(A::AbstractArray) = broadcast(-, A)
*(a::Number, B::AbstractArray) = broadcast(*, a, B)
*(B::AbstractArray, a::Number) = broadcast(*, B, a)
/(B::AbstractArray, a::Number) = broadcast(/, B, a)
# (`a \ b` is `b / a` for real numbers.)
\(a::Number, B::AbstractArray) = broadcast(/, B, a)
# Row vectors stay row vectors.
+(x::Adjoint{T,S}, y::Adjoint{U,V}) where {T,S<:AbstractVector,U,V<:AbstractVector} = adjoint(x.parent + y.parent)
-(x::Adjoint{T,S}, y::Adjoint{U,V}) where {T,S<:AbstractVector,U,V<:AbstractVector} = adjoint(x.parent - y.parent)
-(x::Adjoint{T,S}) where {T,S<:AbstractVector} = adjoint(-x.parent)
*(a::Number, x::Adjoint{T,S}) where {T,S<:AbstractVector} = adjoint(a * x.parent)
*(x::Adjoint{T,S}, a::Number) where {T,S<:AbstractVector} = adjoint(x.parent * a)
/(x::Adjoint{T,S}, a::Number) where {T,S<:AbstractVector} = adjoint(x.parent / a)
+(x::Transpose{T,S}, y::Transpose{U,V}) where {T,S<:AbstractVector,U,V<:AbstractVector} = transpose(x.parent + y.parent)
-(x::Transpose{T,S}, y::Transpose{U,V}) where {T,S<:AbstractVector,U,V<:AbstractVector} = transpose(x.parent - y.parent)
-(x::Transpose{T,S}) where {T,S<:AbstractVector} = transpose(-x.parent)
*(a::Number, x::Transpose{T,S}) where {T,S<:AbstractVector} = transpose(a * x.parent)
*(x::Transpose{T,S}, a::Number) where {T,S<:AbstractVector} = transpose(x.parent * a)
/(x::Transpose{T,S}, a::Number) where {T,S<:AbstractVector} = transpose(x.parent / a)
# Integer ranges stay ranges, as in Julia (`2 * (1:3) == 2:2:6`).
function _int_range(start::Int64, st::Int64, n::Int64)
    if st == 0
        error("not supported yet: range arithmetic giving a step of zero")
    end
    Core.new(StepRange{Int64,Int64}, start, st, start + (n - 1) * st)
end
_range_step(r::UnitRange{Int64}) = 1
_range_step(r::OneTo{Int64}) = 1
_range_step(r::StepRange{Int64,Int64}) = r.step
-(r::AbstractRange{Int64}) = _int_range(-first(r), -_range_step(r), length(r))
*(a::Int64, r::AbstractRange{Int64}) = _int_range(a * first(r), a * _range_step(r), length(r))
*(r::AbstractRange{Int64}, a::Int64) = _int_range(first(r) * a, _range_step(r) * a, length(r))
function _range_lengths(a::AbstractRange, b::AbstractRange)
    if length(a) != length(b)
        throw(DimensionMismatch("argument dimensions must match"))
    end
end
function +(a::AbstractRange{Int64}, b::AbstractRange{Int64})
    _range_lengths(a, b)
    _int_range(first(a) + first(b), _range_step(a) + _range_step(b), length(a))
end
function -(a::AbstractRange{Int64}, b::AbstractRange{Int64})
    _range_lengths(a, b)
    _int_range(first(a) - first(b), _range_step(a) - _range_step(b), length(a))
end
_float_range_arith(r) = error("not supported yet: arithmetic on ranges that gives a range of floats (collect the range first)")
*(a::AbstractFloat, r::AbstractRange) = _float_range_arith(r)
*(r::AbstractRange, a::AbstractFloat) = _float_range_arith(r)
/(r::AbstractRange, a::Number) = _float_range_arith(r)

# Linear systems (LinearAlgebra's `\` and `/`): LU factorisation with partial pivoting
# (LAPACK's `getrf`/`getrs` order of operations, unblocked), which for a diagonal or upper
# triangular matrix does exactly what Julia's substitution does. Julia solves a lower
# triangular matrix by forward substitution, which can differ in the last bits; it is not
# special-cased here because a solve that reads only one triangle has no derivative with
# respect to the other triangle's entries, even where they vary and are zero only at the
# point. A zero pivot (or a zero on a triangular matrix's diagonal) is a `SingularException`.
struct SingularException <: Exception
    info::Int64
end
function istril(A::AbstractMatrix)
    for j in 2:size(A, 2), i in 1:min(j - 1, size(A, 1))
        A[i, j] == 0 || return false
    end
    true
end
function istriu(A::AbstractMatrix)
    for j in 1:size(A, 2), i in (j + 1):size(A, 1)
        A[i, j] == 0 || return false
    end
    true
end
_solve_eltype(A, B) = Core.promote_type(typeof(one(eltype(A)) / one(eltype(A))), eltype(B))
function _solve_copy(B::AbstractVector, ::Type{T}) where {T}
    X = Vector{T}(undef, length(B))
    for i in 1:length(B)
        X[i] = B[i]
    end
    X
end
function _solve_copy(B::AbstractMatrix, ::Type{T}) where {T}
    X = Matrix{T}(undef, size(B, 1), size(B, 2))
    for k in 1:length(B)
        X[k] = B[k]
    end
    X
end
function \(A::AbstractMatrix, B::AbstractVecOrMat)
    m = size(A, 1)
    n = size(A, 2)
    if m != n
        error("not supported yet: `\\` with a non-square matrix (least squares)")
    end
    if size(B, 1) != n
        throw(DimensionMismatch(string("B has leading dimension ", size(B, 1), ", but needs ", n)))
    end
    T = _solve_eltype(A, B)
    X = _solve_copy(B, T)
    if istril(A) || istriu(A)
        for i in 1:n
            A[i, i] == 0 && throw(SingularException(i))
        end
    end
    F = _solve_copy(A, T)
    piv, info = _lu_factor!(F)
    info > 0 && throw(SingularException(info))
    for c in 1:size(X, 2)
        for k in 1:n
            p = piv[k]
            if p != k
                t = X[k, c]
                X[k, c] = X[p, c]
                X[p, c] = t
            end
        end
        _forward_subst!(F, X, c)
        _back_subst!(F, X, c)
    end
    X
end
# Column `c` of `X` overwritten by the solution of `L y = x` (`L` the strict lower triangle of
# `A` with a unit diagonal), column by column as BLAS `trsv`; `_back_subst!` likewise with the
# upper triangle. (BLAS skips a column whose entry is zero; that changes no value but would
# change derivatives, so every column is used.)
function _forward_subst!(A, X, c::Int64)
    n = size(A, 1)
    for j in 1:n
        t = X[j, c]
        for i in (j + 1):n
            X[i, c] -= t * A[i, j]
        end
    end
    X
end
function _back_subst!(A, X, c::Int64)
    n = size(A, 1)
    for j in n:-1:1
        X[j, c] = X[j, c] / A[j, j]
        t = X[j, c]
        for i in (j - 1):-1:1
            X[i, c] -= t * A[i, j]
        end
    end
    X
end
# LU factorisation with partial pivoting in place (LAPACK's unblocked `getf2`): the row
# chosen at each step, and the first step with a zero pivot (0 if none; the factorisation then
# goes on, as LAPACK's does).
function _lu_factor!(A::Matrix{T}) where {T}
    n = size(A, 1)
    piv = Vector{Int64}(undef, n)
    info = 0
    for k in 1:n
        p = k
        amax = abs(A[k, k])
        for i in (k + 1):n
            if abs(A[i, k]) > amax
                amax = abs(A[i, k])
                p = i
            end
        end
        piv[k] = p
        if A[p, k] == 0
            info == 0 && (info = k)
            continue
        end
        if p != k
            for j in 1:n
                t = A[k, j]
                A[k, j] = A[p, j]
                A[p, j] = t
            end
        end
        r = one(T) / A[k, k]
        for i in (k + 1):n
            A[i, k] *= r
        end
        for j in (k + 1):n
            akj = A[k, j]
            for i in (k + 1):n
                A[i, j] -= A[i, k] * akj
            end
        end
    end
    piv, info
end
/(A::AbstractMatrix, B::AbstractMatrix) = copy(adjoint(adjoint(B) \ adjoint(A)))

# Determinants and inverses from the same LU factorisation, as LinearAlgebra computes them for
# a general matrix: `det` is the product of the pivots, negated once per row exchange (zero
# for a singular matrix); `logabsdet` their log-magnitudes and sign; `logdet` its logarithm (a
# `DomainError` for a negative determinant); `inv` the solution of `A X = I`.
function _checksquare(A::AbstractMatrix)
    m = size(A, 1)
    n = size(A, 2)
    if m != n
        throw(DimensionMismatch(string("matrix is not square: dimensions are (", m, ", ", n, ")")))
    end
    n
end
function _lu_of(A::AbstractMatrix)
    _checksquare(A)
    F = _solve_copy(A, typeof(one(eltype(A)) / one(eltype(A))))
    piv, info = _lu_factor!(F)
    F, piv, info
end
function det(A::AbstractMatrix)
    F, piv, info = _lu_of(A)
    T = eltype(F)
    info > 0 && return zero(T)
    P = one(T)
    c = 0
    for i in 1:size(F, 1)
        P *= F[i, i]
        if piv[i] != i
            c += 1
        end
    end
    P * (isodd(c) ? -one(T) : one(T))
end
function logabsdet(A::AbstractMatrix)
    F, piv, info = _lu_of(A)
    T = eltype(F)
    c = 0
    for i in 1:size(F, 1)
        if piv[i] != i
            c += 1
        end
    end
    s = iseven(c) ? one(T) : -one(T)
    d = zero(T)
    for i in 1:size(F, 1)
        u = F[i, i]
        if u < 0
            s = -s
        end
        d += log(abs(u))
    end
    (d, s)
end
function logdet(A::AbstractMatrix)
    d, s = logabsdet(A)
    d + log(s)
end
function inv(A::AbstractMatrix)
    n = _checksquare(A)
    T = typeof(one(eltype(A)) / one(eltype(A)))
    E = zeros(T, n, n)
    for i in 1:n
        E[i, i] = one(T)
    end
    A \ E
end
function tr(A::AbstractMatrix)
    n = _checksquare(A)
    s = zero(eltype(A))
    for i in 1:n
        s += A[i, i]
    end
    s
end
function diag(A::AbstractMatrix)
    n = min(size(A, 1), size(A, 2))
    d = Vector{eltype(A)}(undef, n)
    for i in 1:n
        d[i] = A[i, i]
    end
    d
end
# The upper (`triu`) or lower (`tril`) triangle from the k-th diagonal on, the rest zero.
function triu(A::AbstractMatrix, k::Int64 = 0)
    B = _solve_copy(A, eltype(A))
    for j in 1:size(B, 2), i in 1:size(B, 1)
        if j - i < k
            B[i, j] = zero(eltype(A))
        end
    end
    B
end
function tril(A::AbstractMatrix, k::Int64 = 0)
    B = _solve_copy(A, eltype(A))
    for j in 1:size(B, 2), i in 1:size(B, 1)
        if j - i > k
            B[i, j] = zero(eltype(A))
        end
    end
    B
end
# The square matrix with `v` on its diagonal.
function diagm(v::AbstractVector)
    n = length(v)
    D = zeros(eltype(v), n, n)
    for i in 1:n
        D[i, i] = v[i]
    end
    D
end
# The Kronecker product.
function kron(A::AbstractMatrix, B::AbstractMatrix)
    m, n = size(A, 1), size(A, 2)
    p, q = size(B, 1), size(B, 2)
    K = Matrix{Core.promote_type(eltype(A), eltype(B))}(undef, m * p, n * q)
    for j in 1:n, l in 1:q, i in 1:m, k in 1:p
        K[(i - 1) * p + k, (j - 1) * q + l] = A[i, j] * B[k, l]
    end
    K
end
# `norm(x, p)`: the p-norm of the elements (p = 1: sum of magnitudes; Inf: the largest; 2: the
# Euclidean norm).
function norm(x::AbstractArray, p::Real)
    if p == 2
        return norm(x)
    elseif p == 1
        s = zero(typeof(float(abs(zero(eltype(x))))))
        for v in x
            s += abs(v)
        end
        return s
    elseif p == Inf
        isempty(x) && return zero(typeof(float(abs(zero(eltype(x))))))
        return maximum(abs, x)
    end
    s = zero(typeof(float(abs(zero(eltype(x))))))
    for v in x
        s += abs(v)^p
    end
    s^inv(p)
end
/(x::Adjoint{T,S}, B::AbstractMatrix) where {T,S<:AbstractVector} = adjoint(adjoint(B) \ x.parent)

# The identity of any size (LinearAlgebra's `I`): `A + λ*I` adds λ to the diagonal.
struct UniformScaling{T<:Number}
    λ::T
end
const I = UniformScaling(true)
*(a::Number, J::UniformScaling) = UniformScaling(a * J.λ)
*(J::UniformScaling, a::Number) = UniformScaling(J.λ * a)
/(J::UniformScaling, a::Number) = UniformScaling(J.λ / a)
-(J::UniformScaling) = UniformScaling(-J.λ)
+(J::UniformScaling, K::UniformScaling) = UniformScaling(J.λ + K.λ)
-(J::UniformScaling, K::UniformScaling) = UniformScaling(J.λ - K.λ)
*(J::UniformScaling, A::AbstractArray) = J.λ * A
*(A::AbstractArray, J::UniformScaling) = A * J.λ
function +(A::AbstractMatrix, J::UniformScaling)
    m = size(A, 1)
    n = size(A, 2)
    if m != n
        throw(DimensionMismatch(string("matrix is not square: dimensions are (", m, ", ", n, ")")))
    end
    B = _solve_copy(A, Core.promote_type(eltype(A), typeof(J.λ)))
    for i in 1:n
        B[i, i] += J.λ
    end
    B
end
+(J::UniformScaling, A::AbstractMatrix) = A + J
-(A::AbstractMatrix, J::UniformScaling) = A + (-J)
-(J::UniformScaling, A::AbstractMatrix) = (-A) + J

# `x ≈ y`: Julia's `isapprox` (relative tolerance √eps by default; for arrays, in norm).
_rtol_default(::Type{T}) where {T<:AbstractFloat} = sqrt(eps(T))
_rtol_default(::Type{T}) where {T<:Real} = 0
function isapprox(x::Number, y::Number; atol = 0, rtol = atol > 0 ? 0 : max(_rtol_default(typeof(float(x))), _rtol_default(typeof(float(y)))), nans::Bool = false)
    x == y || (isfinite(x) && isfinite(y) && abs(x - y) <= max(atol, rtol * max(abs(x), abs(y)))) || (nans && isnan(x) && isnan(y))
end
function isapprox(x::AbstractArray, y::AbstractArray; atol = 0, rtol = atol > 0 ? 0 : max(_rtol_default(typeof(float(zero(eltype(x))))), _rtol_default(typeof(float(zero(eltype(y)))))), nans::Bool = false)
    d = norm(x - y)
    if isfinite(d)
        return d <= max(atol, rtol * max(norm(x), norm(y)))
    end
    for k in 1:length(x)
        isapprox(x[k], y[k]; atol = atol, rtol = rtol, nans = nans) || return false
    end
    true
end
≈(x, y) = isapprox(x, y)
⋅(x, y) = dot(x, y)

# ---------------------------------------------------------------------------------------------
# Views: arrays that read and write their parent's memory, as Julia's `SubArray` (`view`,
# `@view`, `@views`, `selectdim`, `eachcol`, `eachrow`). A colon becomes `Base.Slice`, the
# index of a whole dimension.

struct Slice{T} <: AbstractRange{Int64}
    indices::T
end
length(s::Slice) = length(s.indices)
first(s::Slice) = 1
last(s::Slice) = length(s.indices)
step(s::Slice) = 1
getindex(s::Slice, i::Int64) = i
iterate_start(s::Slice) = 1
iterate_done(s::Slice, i::Int64) = i > length(s.indices)
iterate_next(s::Slice, i::Int64) = (i, i + 1)

size(a::AbstractArray{T,N}, d::Int64) where {T,N} = d <= N ? size(a)[d] : 1
ndims(a::AbstractArray{T,N}) where {T,N} = N
eltype(a::AbstractArray{T}) where {T} = T

struct SubArray{T,N,P,I,L} <: AbstractArray{T,N}
    parent::P
    indices::I
    offset1::Int64
    stride1::Int64
end

_view_index(::Colon, n::Int64) = Slice(OneTo(n))
_view_index(::typeof(:), n::Int64) = Slice(OneTo(n))
_view_index(i::Int64, n::Int64) = i
_view_index(r::UnitRange{Int64}, n::Int64) = r
_view_index(r::StepRange{Int64,Int64}, n::Int64) = r
_view_index(v::AbstractVector{Int64}, n::Int64) = v
# A logical mask becomes the positions it selects (Julia collects its `LogicalIndex`).
_view_index(m::Vector{Bool}, n::Int64) = _to_index(m, n)
_view_first(i::Int64) = i
_view_first(r) = first(r)
_view_step(r) = step(r)
# The parent's position of element k along an index.
_pidx(i::Int64, k::Int64) = i
_pidx(r::UnitRange{Int64}, k::Int64) = r.start + k - 1
_pidx(r::StepRange{Int64,Int64}, k::Int64) = r.start + (k - 1) * r.step
_pidx(s::Slice, k::Int64) = k
_pidx(v::AbstractVector{Int64}, k::Int64) = v[k]
_view_len(i::Int64) = 1
_view_len(r) = length(r)

# `offset1` and `stride1` of a view whose elements are evenly spaced in the parent: element k
# is the parent's element `offset1 + stride1 * k` (Julia's fields; zero otherwise).
_view_layout(P::Vector, I, linear::Bool) = linear ? (_view_first(I[1]) - _view_step(I[1]), _view_step(I[1])) : (0, 0)
function _view_layout(P::Matrix, I, linear::Bool)
    if !linear
        return (0, 0)
    end
    m = size(P, 1)
    i, j = I
    lin = _view_first(i) + (_view_first(j) - 1) * m
    st = i isa Int64 ? m * _view_step(j) : _view_step(i)
    (lin - st, st)
end
_view_linear(::SubArray{T,N,P,I,true}) where {T,N,P,I} = true
_view_linear(::SubArray{T,N,P,I,false}) where {T,N,P,I} = false

function _subarray(P, I)
    S = Core.subarray_type(P, I)
    v = Core.new(S, P, I, 0, 0)
    off, st = _view_layout(P, I, _view_linear(v))
    Core.new(S, P, I, off, st)
end

function view(a::Vector, i)
    I = (_view_index(i, length(a)),)
    idx = _to_index(i, length(a))
    _in_bounds(i, idx, length(a)) || Core.throw_bounds(a, i)
    _subarray(a, I)
end
view(a::Vector, i::Int64) = error("not supported yet: zero-dimensional views (index with integers only to read an element)")
function view(A::Matrix, i, j)
    I = (_view_index(i, size(A, 1)), _view_index(j, size(A, 2)))
    ii = _to_index(i, size(A, 1))
    jj = _to_index(j, size(A, 2))
    if !_in_bounds(i, ii, size(A, 1)) || !_in_bounds(j, jj, size(A, 2))
        Core.throw_bounds(A, (i, j))
    end
    _subarray(A, I)
end
view(A::Matrix, i::Int64, j::Int64) = error("not supported yet: zero-dimensional views (index with integers only to read an element)")
# `A[...]` under `@views`: a view of an array unless every index is a number; `getindex`
# otherwise (other containers, typed array literals `T[...]`).
_maybeview(a, I...) = getindex(a, I...)
_maybeview(a::AbstractArray, I...) = view(a, I...)
_maybeview(a::AbstractArray, i::Number) = a[i]
_maybeview(a::AbstractArray, i::Number, j::Number) = a[i, j]
_maybeview(a::AbstractArray, i::Number, j::Number, k::Number) = a[i, j, k]

# A view of integers as an index.
setindex!(a::Vector, x, I::SubArray) = _setindex_selection!(a, x, I)

parent(V::SubArray) = V.parent
parentindices(V::SubArray) = V.indices
size(V::SubArray{T,1}) where {T} = (_view_len(_nonscalar(V.indices)),)
function size(V::SubArray{T,2}) where {T}
    I = V.indices
    (_view_len(I[1]), _view_len(I[2]))
end
length(V::SubArray{T,1}) where {T} = _view_len(_nonscalar(V.indices))
length(V::SubArray{T,2}) where {T} = _view_len(V.indices[1]) * _view_len(V.indices[2])
axes(V::SubArray{T,1}) where {T} = (OneTo(length(V)),)
axes(V::SubArray{T,2}) where {T} = (OneTo(size(V, 1)), OneTo(size(V, 2)))
axes(V::SubArray, d::Int64) = OneTo(size(V, d))
eachindex(V::SubArray) = OneTo(length(V))
lastindex(V::SubArray) = length(V)
lastindex(V::SubArray, d::Int64) = size(V, d)
firstindex(V::SubArray) = 1
isempty(V::SubArray) = length(V) == 0
first(V::SubArray) = V[1]
last(V::SubArray) = V[length(V)]
_nonscalar(I::Tuple{Any}) = I[1]
_nonscalar(I::Tuple{Int64,Any}) = I[2]
_nonscalar(I::Tuple{Any,Int64}) = I[1]

# The parent's linear position of element k of a one-dimensional view.
_plin(P::Vector, I, k::Int64) = _pidx(I[1], k)
_plin(A::Matrix, I::Tuple{Int64,Any}, k::Int64) = I[1] + (_pidx(I[2], k) - 1) * size(A, 1)
_plin(A::Matrix, I::Tuple{Any,Int64}, k::Int64) = _pidx(I[1], k) + (I[2] - 1) * size(A, 1)
_vlin(V::SubArray{T,1,P,I,true}, k::Int64) where {T,P,I} = V.offset1 + V.stride1 * k
_vlin(V::SubArray{T,1,P,I,false}, k::Int64) where {T,P,I} = _plin(V.parent, V.indices, k)
function _vcheck(V::SubArray, k::Int64)
    if k < 1 || k > length(V)
        Core.throw_bounds(V, k)
    end
end
function getindex(V::SubArray{T,1}, k::Int64) where {T}
    _vcheck(V, k)
    Core.arrayref(V.parent, _vlin(V, k))
end
function setindex!(V::SubArray{T,1}, x, k::Int64) where {T}
    _vcheck(V, k)
    V.parent[_vlin(V, k)] = x
    V
end
function getindex(V::SubArray{T,2}, i::Int64, j::Int64) where {T}
    if i < 1 || j < 1 || i > size(V, 1) || j > size(V, 2)
        Core.throw_bounds(V, (i, j))
    end
    Core.arrayref(V.parent, _pidx(V.indices[1], i), _pidx(V.indices[2], j))
end
function setindex!(V::SubArray{T,2}, x, i::Int64, j::Int64) where {T}
    if i < 1 || j < 1 || i > size(V, 1) || j > size(V, 2)
        Core.throw_bounds(V, (i, j))
    end
    V.parent[_pidx(V.indices[1], i), _pidx(V.indices[2], j)] = x
    V
end
function getindex(V::SubArray{T,2}, k::Int64) where {T}
    _vcheck(V, k)
    m = size(V, 1)
    V[1 + rem(k - 1, m), 1 + div(k - 1, m)]
end
function setindex!(V::SubArray{T,2}, x, k::Int64) where {T}
    _vcheck(V, k)
    m = size(V, 1)
    V[1 + rem(k - 1, m), 1 + div(k - 1, m)] = x
end
getindex(V::SubArray{T,1}, ::Colon) where {T} = copy(V)
iterate_start(V::SubArray) = 1
iterate_done(V::SubArray, k::Int64) = k > length(V)
iterate_next(V::SubArray, k::Int64) = (V[k], k + 1)
function copy(V::SubArray{T,1}) where {T}
    out = Vector{T}(undef, length(V))
    for k in 1:length(V)
        out[k] = V[k]
    end
    out
end
function copy(V::SubArray{T,2}) where {T}
    out = Matrix{T}(undef, size(V, 1), size(V, 2))
    for k in 1:length(V)
        out[k] = V[k]
    end
    out
end
collect(V::SubArray) = copy(V)
similar(V::SubArray{T,1}) where {T} = Vector{T}(undef, length(V))
similar(V::SubArray{T,2}) where {T} = Matrix{T}(undef, size(V, 1), size(V, 2))
similar(V::SubArray{T,1}, ::Type{S}) where {T,S} = Vector{S}(undef, length(V))
similar(V::SubArray{T,2}, ::Type{S}) where {T,S} = Matrix{S}(undef, size(V, 1), size(V, 2))
function fill!(V::SubArray, x)
    for k in 1:length(V)
        V[k] = x
    end
    V
end

selectdim(A::Vector, d::Int64, i) = d == 1 ? view(A, i) : error("selectdim: dimension out of range")
function selectdim(A::Matrix, d::Int64, i)
    if d == 1
        return view(A, i, :)
    end
    view(A, :, i)
end
# `eachcol(A)` and `eachrow(A)`: the columns and rows of a matrix, as views.
struct ColumnSlices{P,AX,S} <: AbstractArray{S,1}
    parent::P
end
struct RowSlices{P,AX,S} <: AbstractArray{S,1}
    parent::P
end
eachcol(A::Matrix{T}) where {T} = Core.new(ColumnSlices{Matrix{T},Tuple{OneTo{Int64}},SubArray{T,1,Matrix{T},Tuple{Slice{OneTo{Int64}},Int64},true}}, A)
eachrow(A::Matrix{T}) where {T} = Core.new(RowSlices{Matrix{T},Tuple{OneTo{Int64}},SubArray{T,1,Matrix{T},Tuple{Int64,Slice{OneTo{Int64}}},true}}, A)
length(c::ColumnSlices) = size(c.parent, 2)
length(r::RowSlices) = size(r.parent, 1)
size(c::ColumnSlices) = (length(c),)
size(r::RowSlices) = (length(r),)
getindex(c::ColumnSlices, j::Int64) = view(c.parent, :, j)
getindex(r::RowSlices, i::Int64) = view(r.parent, i, :)
iterate_start(c::ColumnSlices) = 1
iterate_done(c::ColumnSlices, j::Int64) = j > length(c)
iterate_next(c::ColumnSlices, j::Int64) = (c[j], j + 1)
iterate_start(r::RowSlices) = 1
iterate_done(r::RowSlices, i::Int64) = i > length(r)
iterate_next(r::RowSlices, i::Int64) = (r[i], i + 1)
eachindex(c::ColumnSlices) = OneTo(length(c))
eachindex(r::RowSlices) = OneTo(length(r))

# ---------------------------------------------------------------------------------------------
# Higher-order functions. A result's element type is the type of the first result; for an
# empty input, the inferred type of `f` on the element type (`Core.return_type`).

similar(a::Array{T,2}, ::Type{S}) where {T,S} = Matrix{S}(undef, size(a, 1), size(a, 2))

# As Julia's `collect`: the element type is that of the first result, widened (by
# `promote_typejoin`) when a later result does not fit it.
function map(f, a::Array)
    n = length(a)
    if n == 0
        return similar(a, Core.return_type(f, eltype(a)))
    end
    y = f(a[1])
    out = similar(a, typeof(y))
    out[1] = y
    for i in 2:n
        y = f(a[i])
        if !(y isa eltype(out))
            out = _widen(out, typeof(y), i)
        end
        out[i] = y
    end
    out
end
# `T[... for ...]`: the comprehension's elements converted to `T`.
function _typed_collect(::Type{T}, a::Array) where {T}
    out = Vector{T}(undef, length(a))
    for i in 1:length(a)
        out[i] = a[i]
    end
    out
end
# A copy of `out`'s first n - 1 elements with an element type that also holds T's.
function _widen(out, T, n)
    new = similar(out, Core.promote_typejoin(eltype(out), T))
    for j in 1:n-1
        new[j] = out[j]
    end
    new
end
map(f, r::AbstractRange) = map(f, collect(r))
# `[f(x, y) for x in a, y in b]`: a matrix over the product of two collections, `x` varying
# fastest; the element type as `map`'s.
function _product_collect(f, a0, b0)
    a = collect(a0)
    b = collect(b0)
    m = length(a)
    n = length(b)
    if m == 0 || n == 0
        return Matrix{Core.return_type(f, eltype(a), eltype(b))}(undef, m, n)
    end
    y = f(a[1], b[1])
    out = Matrix{typeof(y)}(undef, m, n)
    out[1] = y
    for k in 2:(m * n)
        y = f(a[1 + rem(k - 1, m)], b[1 + div(k - 1, m)])
        if !(y isa eltype(out))
            out = _widen(out, typeof(y), k)
        end
        out[k] = y
    end
    out
end
# `[f(x, y) for x in a, y in b if c(x, y)]`: the vector of the pairs that pass, in the same order.
function _product_filter(f, c, a0, b0)
    a = collect(a0)
    b = collect(b0)
    pairs = Vector{Tuple{eltype(a),eltype(b)}}(undef, 0)
    for j in 1:length(b), i in 1:length(a)
        if c(a[i], b[j])
            push!(pairs, (a[i], b[j]))
        end
    end
    map(p -> f(p[1], p[2]), pairs)
end
function map(f, a::Array, b::Array)
    n = min(length(a), length(b))
    if n == 0
        return Vector{Core.return_type(f, eltype(a), eltype(b))}(undef, 0)
    end
    y = f(a[1], b[1])
    out = Vector{typeof(y)}(undef, n)
    out[1] = y
    for i in 2:n
        y = f(a[i], b[i])
        if !(y isa eltype(out))
            out = _widen(out, typeof(y), i)
        end
        out[i] = y
    end
    out
end
# Any other iterable (`enumerate`, `zip`, tuples, a filtered collection): a vector whose
# element type is `f`'s inferred result type.
_iter_elem(itr, st) = iterate_next(itr, st)[1]
function map(f, itr)
    st = iterate_start(itr)
    E = Core.return_type(_iter_elem, typeof(itr), typeof(st))
    out = Vector{Core.return_type(f, E)}(undef, 0)
    while !iterate_done(itr, st)
        x, st = iterate_next(itr, st)
        push!(out, f(x))
    end
    out
end
collect(a::Array) = copy(a)
collect(itr) = map(identity, itr)
any(itr) = any(identity, itr)
all(itr) = all(identity, itr)
function map!(f, dest::Array, a::Array)
    for i in 1:min(length(dest), length(a))
        dest[i] = f(a[i])
    end
    dest
end
function map!(f, dest::Array, a::Array, b::Array)
    for i in 1:min(length(dest), length(a), length(b))
        dest[i] = f(a[i], b[i])
    end
    dest
end
function foreach(f, itr)
    for x in itr
        f(x)
    end
    nothing
end
function foreach(f, a, b)
    for (x, y) in zip(a, b)
        f(x, y)
    end
    nothing
end
function mapreduce(f, op, itr)
    st = iterate_start(itr)
    if iterate_done(itr, st)
        throw(ArgumentError("reducing over an empty collection is not allowed"))
    end
    x, st = iterate_next(itr, st)
    acc = f(x)
    while !iterate_done(itr, st)
        x, st = iterate_next(itr, st)
        acc = op(acc, f(x))
    end
    acc
end
reduce(op, itr) = mapreduce(identity, op, itr)
foldl(op, itr) = mapreduce(identity, op, itr)
sum(f, itr) = mapreduce(f, +, itr)
prod(f, itr) = mapreduce(f, *, itr)
maximum(f, itr) = mapreduce(f, max, itr)
minimum(f, itr) = mapreduce(f, min, itr)

# Reductions of arrays with Julia's keywords: `dims` (the reduced dimensions keep length 1:
# `sum(A; dims = 1)` is a 1×n matrix) and `init` (the value the reduction starts from).
struct _NoInit end
const _noinit = _NoInit()
sum(a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, +, a, dims, init)
sum(f, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, +, a, dims, init)
prod(a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, *, a, dims, init)
prod(f, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, *, a, dims, init)
maximum(a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, max, a, dims, init)
maximum(f, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, max, a, dims, init)
minimum(a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(identity, min, a, dims, init)
minimum(f, a::AbstractArray; dims = Colon(), init = _noinit) = _reduce(f, min, a, dims, init)
_reduce(f::typeof(identity), op::typeof(+), a, ::Colon, ::_NoInit) = _sum_all(a)
_reduce(f::typeof(identity), op::typeof(*), a, ::Colon, ::_NoInit) = _prod_all(a)
_reduce(f::typeof(identity), op::typeof(max), a, ::Colon, ::_NoInit) = _maximum_all(a)
_reduce(f::typeof(identity), op::typeof(min), a, ::Colon, ::_NoInit) = _minimum_all(a)
_reduce(f, op, a, ::Colon, ::_NoInit) = mapreduce(f, op, a)
function _reduce(f, op, a, ::Colon, init)
    acc = init
    for x in a
        acc = op(acc, f(x))
    end
    acc
end
_in_dims(d::Int64, dims::Int64) = d == dims
_in_dims(d::Int64, dims::Tuple) = d in dims
function _check_dims(dims)
    for d in dims
        d >= 1 || throw(ArgumentError(string("region dimension(s) must be ≥ 1, got ", d)))
    end
end
# The value a reduction over a dimension starts from: zero for `+`, one for `*`, the first
# element of the slice for `max` and `min`.
_dims_start(op::typeof(+), f, T, A, k::Int64) = zero(T) + zero(T)
_dims_start(op::typeof(*), f, T, A, k::Int64) = one(T) * one(T)
_dims_start(op, f, T, A, k::Int64) = f(A[k])
# (Chosen by dispatch on `init`, so that the result's type is known when compiling.)
_dims_init(op, f, T, A, k::Int64, init::_NoInit) = _dims_start(op, f, T, A, k)
_dims_init(op, f, T, A, k::Int64, init) = init
_dims_init_type(T, init::_NoInit) = typeof(zero(T) + zero(T))
_dims_init_type(T, init) = typeof(init)
_check_nonempty(op::typeof(+), init::_NoInit, empty::Bool) = nothing
_check_nonempty(op::typeof(*), init::_NoInit, empty::Bool) = nothing
function _check_nonempty(op, init::_NoInit, empty::Bool)
    if empty
        throw(ArgumentError("reducing over an empty collection is not allowed; consider supplying `init` to the reducer"))
    end
end
_check_nonempty(op, init, empty::Bool) = nothing
_reduce(f, op, a, dims, init) = _reduce_dims(f, op, a, dims, init)
function _reduce_dims(f, op, A::AbstractVector, dims, init)
    _check_dims(dims)
    if !_in_dims(1, dims)
        return map(f, A)
    end
    T = Core.return_type(f, eltype(A))
    _check_nonempty(op, init, length(A) == 0)
    acc = _dims_init(op, f, T, A, 1, init)
    for i in 1:length(A)
        acc = op(acc, f(A[i]))
    end
    R = Vector{typeof(acc)}(undef, 1)
    R[1] = acc
    R
end
function _reduce_dims(f, op, A::AbstractMatrix, dims, init)
    _check_dims(dims)
    m = size(A, 1)
    n = size(A, 2)
    r1 = _in_dims(1, dims)
    r2 = _in_dims(2, dims)
    rm = r1 ? 1 : m
    rn = r2 ? 1 : n
    T = Core.return_type(f, eltype(A))
    _check_nonempty(op, init, m == 0 || n == 0)
    R = Matrix{Core.promote_type(_dims_init_type(T, init), T)}(undef, rm, rn)
    for j in 1:rn, i in 1:rm
        R[i, j] = _dims_init(op, f, T, A, i + (j - 1) * m, init)
    end
    for j in 1:n, i in 1:m
        ri = r1 ? 1 : i
        rj = r2 ? 1 : j
        R[ri, rj] = op(R[ri, rj], f(A[i, j]))
    end
    R
end

# Running sums and products, differences, extremes and their positions (vectors).
function cumsum(x::AbstractVector)
    out = Vector{typeof(zero(eltype(x)) + zero(eltype(x)))}(undef, length(x))
    length(x) == 0 && return out
    s = x[1] + zero(eltype(x))
    out[1] = s
    for i in 2:length(x)
        s += x[i]
        out[i] = s
    end
    out
end
function cumprod(x::AbstractVector)
    out = Vector{typeof(one(eltype(x)) * one(eltype(x)))}(undef, length(x))
    length(x) == 0 && return out
    s = x[1] * one(eltype(x))
    out[1] = s
    for i in 2:length(x)
        s *= x[i]
        out[i] = s
    end
    out
end
function diff(x::AbstractVector)
    n = length(x)
    out = Vector{typeof(x[1] - x[1])}(undef, max(n - 1, 0))
    for i in 1:n-1
        out[i] = x[i + 1] - x[i]
    end
    out
end
function reverse(x::AbstractVector)
    n = length(x)
    out = Vector{eltype(x)}(undef, n)
    for i in 1:n
        out[i] = x[n + 1 - i]
    end
    out
end
# Julia's `findmax`/`findmin` order by `isless`: NaN beats every number, and the first of equal
# values wins.
function findmax(x::AbstractVector)
    isempty(x) && throw(ArgumentError("collection must be non-empty"))
    m = x[1]
    k = 1
    for i in 2:length(x)
        if _isless_num(m, x[i])
            m = x[i]
            k = i
        end
    end
    (m, k)
end
function findmin(x::AbstractVector)
    isempty(x) && throw(ArgumentError("collection must be non-empty"))
    m = x[1]
    k = 1
    for i in 2:length(x)
        if _isgreater_num(m, x[i])
            m = x[i]
            k = i
        end
    end
    (m, k)
end
_isless_num(a::AbstractFloat, b::AbstractFloat) = isnan(b) ? !isnan(a) : (isnan(a) ? false : (a < b || (a == b && signbit(a) && !signbit(b))))
_isless_num(a, b) = a < b
# `isgreater`: `isless` reversed for numbers, with NaN still the extreme.
_isgreater_num(a::AbstractFloat, b::AbstractFloat) = (isnan(a) || isnan(b)) ? _isless_num(a, b) : _isless_num(b, a)
_isgreater_num(a, b) = b < a
argmax(x::AbstractVector) = findmax(x)[2]
argmin(x::AbstractVector) = findmin(x)[2]
extrema(x::AbstractArray) = (minimum(x), maximum(x))
zero(A::AbstractArray{T}) where {T} = fill!(similar(A, typeof(zero(T))), zero(T))

# Statistics: `mean`, `var`, `std` (with `dims` and `corrected`), as Statistics.jl computes them.
mean(a::AbstractArray; dims = Colon()) = _mean(identity, a, dims)
mean(f, a::AbstractArray; dims = Colon()) = _mean(f, a, dims)
_mean(f, a, ::Colon) = sum(f, a) / length(a)
function _mean(f, a, dims)
    R = sum(f, a; dims = dims)
    n = div(length(a), length(R))
    R ./ n
end
function mean(itr)
    st = iterate_start(itr)
    if iterate_done(itr, st)
        throw(ArgumentError("mean of empty collection undefined: " * repr(itr)))
    end
    x, st = iterate_next(itr, st)
    total = x
    count = 1
    while !iterate_done(itr, st)
        x, st = iterate_next(itr, st)
        total += x
        count += 1
    end
    total / count
end
function var(a::AbstractArray; corrected::Bool = true, mean = nothing, dims = Colon())
    _var(a, corrected, mean, dims)
end
function _var(a, corrected::Bool, m, ::Colon)
    n = length(a)
    c = m === nothing ? mean(a) : m
    if n == 0
        return 0.0 / 0.0
    end
    s = mapreduce(x -> abs2(x - c), +, a)
    s / (n - Int64(corrected))
end
function _var(a, corrected::Bool, m, dims)
    c = m === nothing ? mean(a; dims = dims) : m
    n = div(length(a), length(c))
    s = sum(abs2, a .- c; dims = dims)
    s ./ (n - Int64(corrected))
end
std(a::AbstractArray; corrected::Bool = true, mean = nothing, dims = Colon()) = sqrt.(var(a; corrected = corrected, mean = mean, dims = dims))
# `median` (Statistics): the middle order statistic, or the `middle` of the two middle ones,
# found by selection (linear time on average), with Julia's order (`-0.0` before `0.0`); NaN if
# any element is NaN.
middle(x::AbstractFloat) = x
middle(x::Number) = (x + zero(x)) / 1
middle(x::Number, y::Number) = x / 2 + y / 2
function median(v::AbstractArray)
    isempty(v) && throw(ArgumentError(string("median of an empty array is undefined, ", repr(v))))
    w = Vector{eltype(v)}(undef, length(v))
    for k in 1:length(v)
        x = v[k]
        _isnan_any(x) && return convert(eltype(v), NaN)
        w[k] = x
    end
    n = length(w)
    mid = div(1 + n, 2)
    a = _select!(w, mid)
    isodd(n) && return middle(a)
    b = w[mid + 1]
    for k in (mid + 2):n
        if _isless_num(w[k], b)
            b = w[k]
        end
    end
    middle(a, b)
end
_isnan_any(x::AbstractFloat) = isnan(x)
_isnan_any(x) = false
# The k-th smallest element of `w` (rearranged so that the elements after position k are not
# smaller): Hoare's selection.
function _select!(w::Vector, k::Int64)
    lo = 1
    hi = length(w)
    while lo < hi
        p = w[div(lo + hi, 2)]
        i = lo
        j = hi
        while i <= j
            while _isless_num(w[i], p)
                i += 1
            end
            while _isless_num(p, w[j])
                j -= 1
            end
            if i <= j
                t = w[i]
                w[i] = w[j]
                w[j] = t
                i += 1
                j -= 1
            end
        end
        if k <= j
            hi = j
        elseif k >= i
            lo = i
        else
            return w[k]
        end
    end
    w[k]
end
+(a, b, c, xs...) = +(a + b, c, xs...)
*(a, b, c, xs...) = *(a * b, c, xs...)
max(a, b, c, xs...) = max(max(a, b), c, xs...)
min(a, b, c, xs...) = min(min(a, b), c, xs...)
sum(t::Tuple) = mapreduce(identity, +, t)
prod(t::Tuple) = mapreduce(identity, *, t)
maximum(t::Tuple) = mapreduce(identity, max, t)
minimum(t::Tuple) = mapreduce(identity, min, t)
function any(f, itr)
    for x in itr
        if f(x)
            return true
        end
    end
    false
end
function all(f, itr)
    for x in itr
        if !f(x)
            return false
        end
    end
    true
end
function count(f, itr)
    n = 0
    for x in itr
        if f(x)
            n += 1
        end
    end
    n
end
function filter(f, a::Array{T,N}) where {T,N}
    out = Vector{T}(undef, 0)
    for x in a
        if f(x)
            push!(out, x)
        end
    end
    out
end

# ---------------------------------------------------------------------------------------------
# Broadcasting. The lowering turns a fused dotted expression (`f.(x) .+ 2 .* y`, `@. ...`) into
# one call `broadcast(fused, args...)` (`broadcast!(fused, dest, args...)` for `.=`), where
# `fused` is a closure applying the whole expression to one element of each argument: one
# loop, no temporaries. Arguments are scalars, vectors or matrices (ranges are collected);
# dimensions of length 1 expand, as in Julia. The element type is `fused`'s inferred result
# type.

eltype(x::Number) = typeof(x)
_bprep(x::AbstractRange) = collect(x)
_bprep(x) = x
_bd1(x::Number) = 1
_bd1(x::AbstractArray) = size(x, 1)
_bd2(x::Number) = 1
_bd2(x::AbstractVector) = 1
_bd2(x::AbstractMatrix) = size(x, 2)
function _bcomb(a::Int64, b::Int64)
    if a == b || b == 1
        return a
    elseif a == 1
        return b
    end
    throw(DimensionMismatch(string("arrays could not be broadcast to a common size; got a dimension with lengths ", a, " and ", b)))
end
# An argument's stride along dimension 1 or 2: 0 where it is expanded (size 1), else 1; the
# loops below index it at `1 + (i - 1) * stride` (no branch per element).
_bs1(x::Number) = 0
_bs1(x::AbstractArray) = size(x, 1) == 1 ? 0 : 1
_bs2(x::Number) = 0
_bs2(x::AbstractVector) = 0
_bs2(x::AbstractMatrix) = size(x, 2) == 1 ? 0 : 1
_bat(x::Number, i, j) = x
_bat(x::AbstractVector, i, j) = x[i]
_bat(x::AbstractMatrix, i, j) = x[i, j]
# A value with the result's number of dimensions: a matrix if any argument is one.
_bproto(a::Number, b::Number) = a
_bproto(a::AbstractArray, b::Number) = a
_bproto(a::Number, b::AbstractArray) = b
_bproto(a::AbstractVector, b::AbstractVector) = a
_bproto(a::AbstractMatrix, b::AbstractArray) = a
_bproto(a::AbstractVector, b::AbstractMatrix) = b
_balloc(p::AbstractVector, ::Type{T}, d1, d2) where {T} = Vector{T}(undef, d1)
_balloc(p::AbstractMatrix, ::Type{T}, d1, d2) where {T} = Matrix{T}(undef, d1, d2)
# Each argument of `broadcast!` must fit the destination's shape (extent equal, or 1), with
# Julia's messages.
_bmatch(dest::AbstractArray, x::Number) = nothing
function _bmatch(dest::AbstractArray, x::AbstractArray)
    if ndims(dest) == 1 && _bd2(x) != 1
        throw(DimensionMismatch("cannot broadcast array to have fewer non-singleton dimensions"))
    end
    if !(_bd1(x) == _bd1(dest) || _bd1(x) == 1) || !(_bd2(x) == _bd2(dest) || _bd2(x) == 1)
        throw(DimensionMismatch("array could not be broadcast to match destination"))
    end
end
# As Julia's `broadcast!`, an argument that may share memory with the destination (a view of
# the same array, a reshape of it) is copied first, unless it is the destination itself, so
# that every element is computed from the argument's values before the call.
_bunalias(dest, x) = x
function _bunalias(dest::AbstractArray, x::AbstractArray)
    if x === dest || !_mightalias(dest, x)
        return x
    end
    copy(x)
end
# `A[I...] = X` reads `X` as it was before the assignment (Julia's `unalias`).
_unalias(dest, x) = _mightalias(dest, x) ? copy(x) : x
_mightalias(a, b) = false
_mightalias(a::Array, b::Array) = Core.same_memory(a, b)
_mightalias(a::SubArray, b) = _mightalias(a.parent, b)
_mightalias(a::Array, b::SubArray) = _mightalias(a, b.parent)

broadcast(f, a::Number) = f(a)
broadcast(f, a::Number, b::Number) = f(a, b)
broadcast(f, a::Number, b::Number, c::Number) = f(a, b, c)
broadcast(f, a::Number, b::Number, c::Number, d::Number) = f(a, b, c, d)
function broadcast(f, a0)
    a = _bprep(a0)
    d1, d2 = _bd1(a), _bd2(a)
    out = _balloc(a, Core.return_type(f, eltype(a)), d1, d2)
    _bfill!(f, out, a)
end
function broadcast(f, a0, b0)
    a, b = _bprep(a0), _bprep(b0)
    d1, d2 = _bcomb(_bd1(a), _bd1(b)), _bcomb(_bd2(a), _bd2(b))
    out = _balloc(_bproto(a, b), Core.return_type(f, eltype(a), eltype(b)), d1, d2)
    _bfill!(f, out, a, b)
end
function broadcast(f, a0, b0, c0)
    a, b, c = _bprep(a0), _bprep(b0), _bprep(c0)
    d1 = _bcomb(_bcomb(_bd1(a), _bd1(b)), _bd1(c))
    d2 = _bcomb(_bcomb(_bd2(a), _bd2(b)), _bd2(c))
    T = Core.return_type(f, eltype(a), eltype(b), eltype(c))
    out = _balloc(_bproto(_bproto(a, b), c), T, d1, d2)
    _bfill!(f, out, a, b, c)
end
function broadcast(f, a0, b0, c0, e0)
    a, b, c, e = _bprep(a0), _bprep(b0), _bprep(c0), _bprep(e0)
    d1 = _bcomb(_bcomb(_bcomb(_bd1(a), _bd1(b)), _bd1(c)), _bd1(e))
    d2 = _bcomb(_bcomb(_bcomb(_bd2(a), _bd2(b)), _bd2(c)), _bd2(e))
    T = Core.return_type(f, eltype(a), eltype(b), eltype(c), eltype(e))
    out = _balloc(_bproto(_bproto(_bproto(a, b), c), e), T, d1, d2)
    _bfill!(f, out, a, b, c, e)
end
# `.=` into a value that is not an array (`x[1] .= 2` for a vector of numbers).
_unwritable(dest) = throw(ArgumentError(string("cannot broadcast-assign (`.=`) into a value of type ", typeof(dest))))
broadcast!(f, dest) = _unwritable(dest)
broadcast!(f, dest, a) = _unwritable(dest)
broadcast!(f, dest, a, b) = _unwritable(dest)
broadcast!(f, dest, a, b, c) = _unwritable(dest)
broadcast!(f, dest, a, b, c, e) = _unwritable(dest)
broadcast!(f, dest::AbstractArray) = _bfill!(f, dest)
broadcast!(f, dest::AbstractArray, a) = _bfill!(f, dest, _bunalias(dest, _bprep(a)))
function broadcast!(f, dest::AbstractArray, a, b)
    _bfill!(f, dest, _bunalias(dest, _bprep(a)), _bunalias(dest, _bprep(b)))
end
function broadcast!(f, dest::AbstractArray, a, b, c)
    _bfill!(f, dest, _bunalias(dest, _bprep(a)), _bunalias(dest, _bprep(b)), _bunalias(dest, _bprep(c)))
end
function broadcast!(f, dest::AbstractArray, a, b, c, e)
    _bfill!(f, dest, _bunalias(dest, _bprep(a)), _bunalias(dest, _bprep(b)), _bunalias(dest, _bprep(c)), _bunalias(dest, _bprep(e)))
end
# The loops: `dest`'s elements in memory order, each argument read at the matching (or
# expanded) position.
function _bfill!(f, dest)
    for k in 1:length(dest)
        dest[k] = f()
    end
    dest
end
function _bfill!(f, dest, a)
    d1, d2 = _bd1(dest), _bd2(dest)
    _bmatch(dest, a)
    a1, a2 = _bs1(a), _bs2(a)
    k = 0
    for j in 1:d2, i in 1:d1
        k += 1
        dest[k] = f(_bat(a, 1 + (i - 1) * a1, 1 + (j - 1) * a2))
    end
    dest
end
function _bfill!(f, dest, a, b)
    d1, d2 = _bd1(dest), _bd2(dest)
    _bmatch(dest, a)
    _bmatch(dest, b)
    a1, a2 = _bs1(a), _bs2(a)
    b1, b2 = _bs1(b), _bs2(b)
    k = 0
    for j in 1:d2, i in 1:d1
        k += 1
        dest[k] = f(_bat(a, 1 + (i - 1) * a1, 1 + (j - 1) * a2), _bat(b, 1 + (i - 1) * b1, 1 + (j - 1) * b2))
    end
    dest
end
function _bfill!(f, dest, a, b, c)
    d1, d2 = _bd1(dest), _bd2(dest)
    _bmatch(dest, a)
    _bmatch(dest, b)
    _bmatch(dest, c)
    a1, a2 = _bs1(a), _bs2(a)
    b1, b2 = _bs1(b), _bs2(b)
    c1, c2 = _bs1(c), _bs2(c)
    k = 0
    for j in 1:d2, i in 1:d1
        k += 1
        dest[k] = f(_bat(a, 1 + (i - 1) * a1, 1 + (j - 1) * a2), _bat(b, 1 + (i - 1) * b1, 1 + (j - 1) * b2), _bat(c, 1 + (i - 1) * c1, 1 + (j - 1) * c2))
    end
    dest
end
function _bfill!(f, dest, a, b, c, e)
    d1, d2 = _bd1(dest), _bd2(dest)
    _bmatch(dest, a)
    _bmatch(dest, b)
    _bmatch(dest, c)
    _bmatch(dest, e)
    a1, a2 = _bs1(a), _bs2(a)
    b1, b2 = _bs1(b), _bs2(b)
    c1, c2 = _bs1(c), _bs2(c)
    e1, e2 = _bs1(e), _bs2(e)
    k = 0
    for j in 1:d2, i in 1:d1
        k += 1
        dest[k] = f(_bat(a, 1 + (i - 1) * a1, 1 + (j - 1) * a2), _bat(b, 1 + (i - 1) * b1, 1 + (j - 1) * b2), _bat(c, 1 + (i - 1) * c1, 1 + (j - 1) * c2), _bat(e, 1 + (i - 1) * e1, 1 + (j - 1) * e2))
    end
    dest
end

# ---------------------------------------------------------------------------------------------
# AD inside the language: `derivative` by forward mode, `gradient` by reverse mode. Both can be
# differentiated again (forward mode over either), with no perturbation confusion: each level's
# tangents are separate values of the rule it runs.

# The derivative of `f` at the float `x` (a tangent of `f(x)`: a float for a float result).
function derivative(f, x::Float64)
    d = Core.dual_apply(f, Core.zero_tangent(f), x, 1.0)
    Core.return_type(f, Float64) === Float64 ? d::Float64 : d
end
function derivative(f, x::Float32)
    d = Core.dual_apply(f, Core.zero_tangent(f), x, 1.0f0)
    Core.return_type(f, Float32) === Float32 ? d::Float32 : d
end

# The gradient of `f` (returning a float) at `x`: of the same shape as `x`.
gradient(f, x::Float64) = Core.grad_apply(f, x)::Float64
gradient(f, x::Float32) = Core.grad_apply(f, x)::Float32
gradient(f, x::Vector{Float64}) = Core.grad_apply(f, x)::Vector{Float64}
gradient(f, x::Vector{Float32}) = Core.grad_apply(f, x)::Vector{Float32}
gradient(f, x) = Core.grad_apply(f, x)

# ---------------------------------------------------------------------------------------------
# Constants (after the functions they use)

const Inf = Core.div_float(1.0, 0.0)
const NaN = Core.div_float(0.0, 0.0)
const Inf64 = Inf
const NaN64 = NaN
const Inf32 = Core.fpconvert(Float32, Inf)
const NaN32 = Core.fpconvert(Float32, NaN)
const pi = 3.141592653589793
const π = 3.141592653589793
