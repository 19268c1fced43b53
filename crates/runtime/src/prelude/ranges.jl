# Ranges: `UnitRange`, `StepRange`, `Base.OneTo`, their lengths, indexing and iteration.

function UnitRange{T}(start, stop) where {T}
    a = convert(T, start)
    b = convert(T, stop)
    Core.new(UnitRange{T}, a, b >= a ? b : a - one(T))
end
UnitRange{T}(r::AbstractUnitRange) where {T} = UnitRange{T}(first(r), last(r))
UnitRange(r::AbstractUnitRange) = UnitRange(first(r), last(r))
(:)(a::Int64, b::Int64) = UnitRange{Int64}(a, b)
# Ranges of the other integer types (`0x01:0x03`) hold elements of their type, and their
# length is one too, as Julia's; integers of two types meet in their promotion (`1:0x03`).
(:)(a::T, b::T) where {T<:_BitInt} = UnitRange{T}(a, b)
(:)(a::Integer, b::Integer) = (p = promote(a, b); (:)(p[1], p[2]))
length(r::UnitRange{T}) where {T<:_BitInt} = r.stop - r.start + one(T)
step(r::UnitRange{T}) where {T<:_BitInt} = one(T)
function getindex(r::UnitRange{T}, i::Int64) where {T<:_BitInt}
    (1 <= i && i <= length(r)) || Core.throw_bounds(r, i)
    _wrap(T, r.start._bits + (i - 1))
end
# `:` as a value is `Colon()`, which calls `:` (`f = (:); f(1, 3)`, `map(:, a, b)`).
(c::Colon)(a, b) = a:b
(c::Colon)(a, s, b) = a:s:b
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
size(r::AbstractRange) = (Int64(length(r)),)
first(r::UnitRange) = r.start
last(r::UnitRange) = r.stop
first(r::StepRange) = r.start
last(r::StepRange) = r.stop
step(r::StepRange) = r.step
step(r::UnitRange{Int64}) = 1
step(r::OneTo{Int64}) = 1
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
# A range indexed by a range is a range, by a vector of integers a vector, as in Julia.
function _range_index_check(r, s)
    isempty(s) || (first(s) >= 1 && last(s) <= length(r)) || Core.throw_bounds(r, s)
    nothing
end
function getindex(r::Union{UnitRange{Int64},OneTo{Int64}}, s::UnitRange{Int64})
    _range_index_check(r, s)
    f = first(r) + first(s) - 1
    UnitRange(f, f + length(s) - 1)
end
function getindex(r::Union{UnitRange{Int64},OneTo{Int64}}, s::StepRange{Int64,Int64})
    _range_index_check(r, s)
    f = first(r) + first(s) - 1
    StepRange(f, step(s), f + (length(s) - 1) * step(s))
end
function getindex(r::StepRange{Int64,Int64}, s::AbstractRange{Int64})
    _range_index_check(r, s)
    f = first(r) + (first(s) - 1) * step(r)
    st = step(r) * step(s)
    StepRange(f, st, f + (length(s) - 1) * st)
end
function getindex(r::AbstractRange, v::AbstractVector{Int64})
    out = Vector{eltype(r)}(undef, length(v))
    for k in 1:length(v)
        out[k] = r[v[k]]
    end
    out
end
getindex(r::AbstractRange, m::AbstractVector{Bool}) = r[findall(m)]
iterate_start(r::UnitRange{Int64}) = r.start
iterate_done(r::UnitRange{Int64}, i::Int64) = i > r.stop
iterate_next(r::UnitRange{Int64}, i::Int64) = (i, i + 1)
iterate_start(r::StepRange{Int64,Int64}) = r.start
iterate_done(r::StepRange{Int64,Int64}, i::Int64) = r.step > 0 ? i > r.stop : i < r.stop
iterate_next(r::StepRange{Int64,Int64}, i::Int64) = (i, i + r.step)
OneTo(n::Int64) = Core.new(OneTo{Int64}, max(n, 0))
function collect(r::AbstractRange{T}) where {T}
    n = length(r)
    a = Vector{T}(undef, n)
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
