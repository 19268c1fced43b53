# Type forms of public code: value type parameters, inner constructors with `where`,
# `Ref{T}(x)`, `NTuple{N,T}` with a computed `N`, `Sys`, `@kwdef`, `conj`/`real`/`imag` of arrays.
struct Layer{A}
    w::Vector{Float64}
    function Layer{A}(n::Int) where {A}
        new{A}(zeros(n))
    end
end
activate(::Layer{:relu}, x) = max(x, 0.0)
activate(::Layer{:tanh}, x) = tanh(x)
l = Layer{:relu}(3)
println(l.w, " ", typeof(l), " ", activate(l, -1.0), " ", activate(Layer{:tanh}(1), 0.5))
struct P{T<:Real}
    x::T
    P(x::T) where {T<:Real} = new{T}(x)
end
println(P(2.0), " ", P(3))
g(::Val{3}) = "three"
g(::Val{N}) where {N} = N
println(g(Val{3}()), " ", g(Val(3)), " ", g(Val(:a)))
r = Ref{Any}(3)
r[] = "text"
println(r[], " ", Ref{Float64}(2)[], " ", typeof(Ref{Float64}(2)))
N = 3
t = ntuple(i -> 1.0, N)
tuple_type(n) = NTuple{n,Float64}
println(t isa NTuple{N,Float64}, " ", tuple_type(2), " ", tuple_type(4))
println(Sys.WORD_SIZE, " ", Sys.CPU_THREADS > 0)
Base.@kwdef struct Opt
    lr::Float64 = 0.1
    n::Int = 3
end
println(Opt(), " ", Opt(n = 5))
@assert 1 + 1 == 2 "math"
println(conj([1.0, 2.0]), " ", real([1.0 2.0]), " ", imag([1.0, 2.0]), " ", imag(2.5))
A = [1.0 2.0; 3.0 4.0]
println(A^2, " ", A^0)
Sys.NOPE
