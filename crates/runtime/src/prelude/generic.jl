# Generic functions on any value: `typeof`, `isa`, `===`, `identity`, `ifelse`, comparisons
# derived from `==` and `<`.

typeof(x) = Core.typeof(x)
isa(x, T) = Core.isa(x, T)
# A value for a field declared `Union{A, B, ...}`: `x` itself when it is of a member, else
# converted to the member other than `Nothing` of `Union{T, Nothing}`, as Julia's `convert`.
# (Each member is tested by its own call, so that the tests and the conversion fold away once
# the types are known.)
_convert_union(x, ts::Tuple) = _isa_any(x, ts) ? x : _convert_to_member(x, ts...)
_convert_to_member(x, ::Type{Nothing}, ::Type{T}) where {T} = convert(T, x)
_convert_to_member(x, ::Type{T}, ::Type{Nothing}) where {T} = convert(T, x)
_convert_to_member(x, ts...) = Core.throw_argument(string("not supported yet: converting a value of type ", typeof(x), " to a union of ", join(map(string, ts), ", "), " for a field"))
# `x isa Union{A, B, ...}`: whether `x` is of one of the members.
_isa_any(x, ts::Tuple{}) = false
_isa_any(x, ts::Tuple) = Core.isa(x, ts[1]) || _isa_any(x, _tuple_tail(ts...))
===(x, y) = Core.egal(x, y)
!==(x, y) = !Core.egal(x, y)
==(x, y) = Core.egal(x, y)
!=(x, y) = !(x == y)
>(x, y) = y < x
>=(x, y) = y <= x
identity(x) = x
isnothing(x) = Core.egal(x, nothing)
ifelse(c::Bool, x, y) = c ? x : y
oftype(x, y) = convert(typeof(x), y)
# -1, 0 or 1 as `x` sorts before, with or after `y` (by `isless`).
cmp(x, y) = isless(x, y) ? -1 : ifelse(isless(y, x), 1, 0)
# Subtyping as a function (`eltype(v) <: Real`).
<:(::Type{A}, ::Type{B}) where {A, B} = Core.issubtype(A, B)
>:(::Type{A}, ::Type{B}) where {A, B} = Core.issubtype(B, A)
# The larger and the smaller by `isless` (numbers have their own methods).
max(x, y) = ifelse(isless(y, x), x, y)
min(x, y) = ifelse(isless(y, x), y, x)

# Reflection on fields: the names of a struct's (or named tuple's) fields, as symbols.
fieldnames(::Type{T}) where {T} = Core.fieldnames(T)
fieldcount(::Type{T}) where {T} = length(fieldnames(T))
fieldtypes(::Type{T}) where {T} = Core.fieldtypes(T)
fieldtype(::Type{T}, i::Int64) where {T} = fieldtypes(T)[i]
function fieldtype(::Type{T}, s::Symbol) where {T}
    names = fieldnames(T)
    for k in 1:length(names)
        names[k] === s && return fieldtypes(T)[k]
    end
    error("FieldError: type $(T) has no field `$(s)`")
end
hasfield(::Type{T}, name::Symbol) where {T} = name in fieldnames(T)
# Whether field `name` of `x` holds a value: false for a field `new` was given no value for
# (and for a name that is not a field).
isdefined(x, name::Symbol) = Core.isdefined(x, name)
propertynames(x) = fieldnames(typeof(x))
hasproperty(x, name::Symbol) = name in propertynames(x)

# The first argument that is not `nothing`.
something() = throw(ArgumentError("No value arguments present"))
something(x::Nothing, y...) = something(y...)
something(x, y...) = x
# `invoke(f, Tuple{A, B}, a, b)`: the method of `f` that arguments of types `A` and `B` would
# select, called on `a` and `b` (a method calling a less specific one of the same function).
invoke(f, ::Type{T}, args...) where {T} = Core.invoke(f, T, args...)
