# Types used by the library: `undef`, `Colon`, the abstract number and array types, `Nothing`.

struct UndefInitializer end
const undef = UndefInitializer()

struct Colon end

abstract type OrdinalRange{T,S} <: AbstractRange{T} end
abstract type AbstractUnitRange{T} <: OrdinalRange{T,T} end

struct UnitRange{T} <: AbstractUnitRange{T}
    start::T
    stop::T
end

struct OneTo{T} <: AbstractUnitRange{T}
    stop::T
end

struct StepRange{T,S} <: OrdinalRange{T,S}
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
struct OverflowError <: Exception
    msg::String
end
# Julia's other exception types, with Julia's fields: what a `catch` block receives for the
# errors the runtime raises (`world` counts Julia's method tables, 0 here).
struct BoundsError <: Exception
    a
    i
end
struct MethodError <: Exception
    f
    args
    world::Int64
end
MethodError(f, args) = MethodError(f, args, 0)
struct UndefVarError <: Exception
    var::Symbol
    scope
end
UndefVarError(var::Symbol) = UndefVarError(var, :Main)
struct UndefRefError <: Exception end
struct TypeError <: Exception
    func::Symbol
    context
    expected
    got
end
struct InexactError <: Exception
    func::Symbol
    T
    val
end
struct StringIndexError <: Exception
    string
    index::Int64
end
struct StackOverflowError <: Exception end
struct OutOfMemoryError <: Exception end
struct KeyError <: Exception
    key
end

# The state of a reverse-mode rule (used by derived code through `Core.rule_stack` and
# `Core.rule_child`): its stacks and the states of the rules it calls.
mutable struct RuleState
    stacks::Vector{Any}
    children::Vector{Any}
end

struct _Iterators_Enumerate{I}
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

# `Val{x}()`: a value whose type carries `x` (an integer, `Bool` or symbol) for dispatch.
struct Val{x} end
Val(x) = error("not supported yet: `Val(x)` with a run-time value; write `Val{x}()` with the value itself")
