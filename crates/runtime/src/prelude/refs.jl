# `Ref(x)`: a mutable cell holding one value; `r[]` reads it and `r[] = v` writes it. In a
# broadcast a `Ref` stands for its contents as one scalar (`f.(xs, Ref(table))`).

abstract type Ref{T} end

mutable struct RefValue{T} <: Ref{T}
    x::T
end

Ref(x) = RefValue{typeof(x)}(x)
# `Ref{T}(x)`: a cell of element type `T` (`Ref{Any}(x)` can later hold any value).
Ref{T}(x) where {T} = RefValue{T}(convert(T, x))
getindex(r::RefValue) = r.x
function setindex!(r::RefValue{T}, v) where {T}
    r.x = convert(T, v)
    r
end
eltype(r::RefValue{T}) where {T} = T
