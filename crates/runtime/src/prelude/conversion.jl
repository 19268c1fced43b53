# Conversion and promotion between Int64, Float64, Float32 and Bool, as Julia promotes.

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
float(::Type{Float64}) = Float64
float(::Type{Float32}) = Float32
float(::Type{Int64}) = Float64
float(::Type{Bool}) = Float64

promote(x::T, y::T) where {T} = (x, y)
function promote(x, y)
    T = Core.promote_type(typeof(x), typeof(y))
    (convert(T, x), convert(T, y))
end
promote(x) = (x,)
function promote(x, y, z, rest...)
    T = promote_type(typeof(x), typeof(y), typeof(z), map(typeof, rest)...)
    (convert(T, x), convert(T, y), convert(T, z), map(r -> convert(T, r), rest)...)
end
# Types without a promotion between them promote to their join, as Julia's do
# (`promote_type(Int64, Real)` is `Real`, `promote_type(Int64, String)` is `Any`).
function promote_type(S, T)
    P = Core.promote_type(S, T)
    P === Any ? Core.promote_typejoin(S, T) : P
end
promote_type(T) = T
promote_type(S, T, U, rest...) = promote_type(promote_type(S, T), U, rest...)
