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
function sum(a::Array{T,N}) where {T,N}
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
function prod(a::Array{T,N}) where {T,N}
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
function maximum(a::Array)
    isempty(a) && Core.throw_argument("reducing over an empty collection is not allowed; consider supplying `init` to the reducer")
    m = a[1]
    for i in 2:length(a)
        m = max(m, a[i])
    end
    m
end
function minimum(a::Array)
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
function *(A::Matrix, x::AbstractVector)
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
function *(A::Matrix, B::Matrix)
    m = size(A, 1)
    k = size(A, 2)
    n = size(B, 2)
    if k != size(B, 1)
        throw(DimensionMismatch(string("matrix A has dimensions (", m, ",", k, "), matrix B has dimensions (", size(B, 1), ",", n, ")")))
    end
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
function transpose(A::Matrix{T}) where {T}
    m = size(A, 1)
    n = size(A, 2)
    B = Matrix{T}(undef, n, m)
    for j in 1:n, i in 1:m
        B[j, i] = A[i, j]
    end
    B
end
adjoint(A::Matrix) = transpose(A)

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
sum(V::SubArray) = sum(copy(V))
prod(V::SubArray) = prod(copy(V))
maximum(V::SubArray) = maximum(copy(V))
minimum(V::SubArray) = minimum(copy(V))
==(a::SubArray, b::SubArray) = copy(a) == copy(b)
==(a::SubArray, b::Array) = copy(a) == b
==(a::Array, b::SubArray) = a == copy(b)

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
