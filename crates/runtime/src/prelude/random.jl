# Random numbers (the Random standard library): `rand`, `randn`, `rand!`, `randn!`, `randperm`,
# `shuffle`, `shuffle!`, `randexp`, `Random.seed!`, and explicit generators `Xoshiro(seed)`.
#
# Every generator is xoshiro256++ (the algorithm behind Julia's default generator), its four
# words of state set from the seed by SplitMix64. Julia expands a seed through SHA-256 instead and
# draws normals by the ziggurat method, so the streams are not Julia's: a seeded program prints
# the same numbers on every run and both backends, but not the numbers Julia prints. The default
# generator starts from the seed 0 (Julia's starts from system entropy). The state lives in
# Int64 words; their wrapping arithmetic and shifts are bit for bit those of UInt64 (shifts by
# constants straight on the primitives, so that the generator inlines wherever it is used).
#
# Random numbers are constants to AD: they are made from integers, which carry no tangent.

abstract type AbstractRNG end

mutable struct Xoshiro <: AbstractRNG
    s0::Int64
    s1::Int64
    s2::Int64
    s3::Int64
end

# Older code asks for a Mersenne Twister by name; it gets the same xoshiro256++ stream.
mutable struct MersenneTwister <: AbstractRNG
    s0::Int64
    s1::Int64
    s2::Int64
    s3::Int64
end

Xoshiro(seed::Int64) = seed!(Xoshiro(0, 0, 0, 0), seed)
MersenneTwister(seed::Int64) = seed!(MersenneTwister(0, 0, 0, 0), seed)

# One SplitMix64 step: the next counter and its output word.
function _splitmix64(z::Int64)
    z += -7046029254386353131
    x = z
    x = (x ⊻ Core.lshr_int(x, 30)) * -4658895280553007687
    x = (x ⊻ Core.lshr_int(x, 27)) * -7723592293110705685
    (z, x ⊻ Core.lshr_int(x, 31))
end

function seed!(rng::AbstractRNG, seed::Int64)
    z, a = _splitmix64(seed)
    z, b = _splitmix64(z)
    z, c = _splitmix64(z)
    z, d = _splitmix64(z)
    rng.s0 = a
    rng.s1 = b
    rng.s2 = c
    rng.s3 = d
    rng
end

# Rotation left by k in 1:63 (straight on the primitives: small enough to inline everywhere).
_rotl(x::Int64, k::Int64) = Core.or_int(Core.shl_int(x, k), Core.lshr_int(x, 64 - k))

# The next 64 random bits.
function _next_word(rng::AbstractRNG)
    s0 = rng.s0
    s1 = rng.s1
    s2 = rng.s2
    s3 = rng.s3
    out = _rotl(s0 + s3, 23) + s0
    t = Core.shl_int(s1, 17)
    s2 = s2 ⊻ s0
    s3 = s3 ⊻ s1
    s1 = s1 ⊻ s2
    s0 = s0 ⊻ s3
    s2 = s2 ⊻ t
    s3 = _rotl(s3, 45)
    rng.s0 = s0
    rng.s1 = s1
    rng.s2 = s2
    rng.s3 = s3
    out
end

# A uniform integer in 0:n-1 (n >= 1), without bias: words past the last whole multiple of n
# are drawn again.
function _below(rng::AbstractRNG, n::Int64)
    excess = (typemax(Int64) % n + 1) % n    # 2^63 mod n
    while true
        v = Core.lshr_int(_next_word(rng), 1)
        if v <= typemax(Int64) - excess
            return v % n
        end
    end
end

# One value of what `rand(rng, s)` draws from `s`: a type or a collection.
_draw(rng::AbstractRNG, ::Type{Float64}) = Float64(Core.lshr_int(_next_word(rng), 11)) * 1.1102230246251565e-16
_draw(rng::AbstractRNG, ::Type{Float32}) = Float32(Core.lshr_int(_next_word(rng), 40)) * 5.9604645f-8
_draw(rng::AbstractRNG, ::Type{Int64}) = _next_word(rng)
_draw(rng::AbstractRNG, ::Type{Bool}) = _next_word(rng) < 0
function _draw(rng::AbstractRNG, xs::AbstractArray)
    isempty(xs) && throw(ArgumentError("collection must be non-empty"))
    xs[firstindex(xs) + _below(rng, length(xs))]
end
function _draw(rng::AbstractRNG, t::Tuple)
    isempty(t) && throw(ArgumentError("collection must be non-empty"))
    t[1 + _below(rng, length(t))]
end
_draw(rng::AbstractRNG, ::Type{T}) where {T} = throw(ArgumentError(string("not supported yet: random values of type ", T)))
_draw_type(::Type{T}) where {T} = T
_draw_type(xs::AbstractArray) = eltype(xs)
_draw_type(t::Tuple) = typeof(t[1])

# A standard normal value (Marsaglia's polar method).
function _draw_normal(rng::AbstractRNG)
    u = 0.0
    s = 0.0
    while true
        u = 2.0 * _draw(rng, Float64) - 1.0
        v = 2.0 * _draw(rng, Float64) - 1.0
        s = u * u + v * v
        0.0 < s < 1.0 && break
    end
    u * sqrt(-2.0 * log(s) / s)
end
_normal(rng::AbstractRNG, ::Type{Float64}) = _draw_normal(rng)
_normal(rng::AbstractRNG, ::Type{Float32}) = Float32(_draw_normal(rng))
_normal(rng::AbstractRNG, ::Type{T}) where {T} = throw(ArgumentError(string("not supported yet: normal random values of type ", T)))

function rand!(rng::AbstractRNG, A::AbstractArray, s)
    for i in eachindex(A)
        A[i] = _draw(rng, s)
    end
    A
end
rand!(rng::AbstractRNG, A::AbstractArray) = rand!(rng, A, eltype(A))
rand!(A::AbstractArray, s) = rand!(default_rng(), A, s)
rand!(A::AbstractArray) = rand!(default_rng(), A, eltype(A))

function randn!(rng::AbstractRNG, A::AbstractArray)
    T = eltype(A)
    for i in eachindex(A)
        A[i] = _normal(rng, T)
    end
    A
end
randn!(A::AbstractArray) = randn!(default_rng(), A)
# An exponential variate of mean one (by inversion, where Julia uses a ziggurat).
randexp(rng::AbstractRNG) = -log1p(-rand(rng))
randexp() = randexp(default_rng())
randexp(rng::AbstractRNG, n::Int64) = [randexp(rng) for _ in 1:n]
randexp(n::Int64) = randexp(default_rng(), n)

# Dimensions given as a tuple: `rand((2, 3))` is a 2×3 matrix, while a tuple of other values is
# a collection to draw from.
_array_of(::Type{T}, d::Tuple{Int64}) where {T} = Vector{T}(undef, d[1])
_array_of(::Type{T}, d::Tuple{Int64,Int64}) where {T} = Matrix{T}(undef, d[1], d[2])
_array_of(::Type{T}, d::Tuple{Int64,Int64,Int64}) where {T} = Array{T,3}(undef, d[1], d[2], d[3])

rand(rng::AbstractRNG) = _draw(rng, Float64)
rand(rng::AbstractRNG, s) = _draw(rng, s)
rand(rng::AbstractRNG, s, d::Union{Tuple{Int64},Tuple{Int64,Int64},Tuple{Int64,Int64,Int64}}) = rand!(rng, _array_of(_draw_type(s), d), s)
rand(rng::AbstractRNG, d::Union{Tuple{Int64},Tuple{Int64,Int64},Tuple{Int64,Int64,Int64}}) = rand(rng, Float64, d)
rand(rng::AbstractRNG, n::Int64) = rand(rng, Float64, (n,))
rand(rng::AbstractRNG, m::Int64, n::Int64) = rand(rng, Float64, (m, n))
rand(rng::AbstractRNG, a::Int64, b::Int64, c::Int64) = rand(rng, Float64, (a, b, c))
rand(rng::AbstractRNG, s, n::Int64) = rand(rng, s, (n,))
rand(rng::AbstractRNG, s, m::Int64, n::Int64) = rand(rng, s, (m, n))
rand(rng::AbstractRNG, s, a::Int64, b::Int64, c::Int64) = rand(rng, s, (a, b, c))
# (Outside threaded loops straight on the default generator, which then inlines; inside them
# through a call, which keeps `rand()` small enough to inline.)
@noinline _task_rand() = rand(default_rng())
@noinline _task_randn() = randn(default_rng())
rand() = Core.in_threaded_loop() ? _task_rand() : rand(_default_rng)
rand(s) = rand(default_rng(), s)
rand(s, d) = rand(default_rng(), s, d)
rand(m::Int64, n::Int64) = rand(default_rng(), m, n)
rand(s, m::Int64, n::Int64) = rand(default_rng(), s, m, n)
rand(a::Int64, b::Int64, c::Int64) = rand(default_rng(), a, b, c)
rand(s, a::Int64, b::Int64, c::Int64) = rand(default_rng(), s, a, b, c)

randn(rng::AbstractRNG) = _normal(rng, Float64)
randn(rng::AbstractRNG, ::Type{T}) where {T} = _normal(rng, T)
randn(rng::AbstractRNG, ::Type{T}, d::Union{Tuple{Int64},Tuple{Int64,Int64},Tuple{Int64,Int64,Int64}}) where {T} = randn!(rng, _array_of(T, d))
randn(rng::AbstractRNG, d::Union{Tuple{Int64},Tuple{Int64,Int64},Tuple{Int64,Int64,Int64}}) = randn(rng, Float64, d)
randn(rng::AbstractRNG, n::Int64) = randn(rng, Float64, (n,))
randn(rng::AbstractRNG, m::Int64, n::Int64) = randn(rng, Float64, (m, n))
randn(rng::AbstractRNG, a::Int64, b::Int64, c::Int64) = randn(rng, Float64, (a, b, c))
randn(rng::AbstractRNG, ::Type{T}, n::Int64) where {T} = randn(rng, T, (n,))
randn(rng::AbstractRNG, ::Type{T}, m::Int64, n::Int64) where {T} = randn(rng, T, (m, n))
randn(rng::AbstractRNG, ::Type{T}, a::Int64, b::Int64, c::Int64) where {T} = randn(rng, T, (a, b, c))
randn() = Core.in_threaded_loop() ? _task_randn() : randn(_default_rng)
randn(x) = randn(default_rng(), x)
randn(x, n::Int64) = randn(default_rng(), x, n)
randn(x, m::Int64, n::Int64) = randn(default_rng(), x, m, n)
randn(x, a::Int64, b::Int64, c::Int64) = randn(default_rng(), x, a, b, c)
randn(::Type{T}, d::Tuple) where {T} = randn(default_rng(), T, d)

# Fisher–Yates, from the last position down.
function shuffle!(rng::AbstractRNG, v::AbstractVector)
    n = length(v)
    for i in n:-1:2
        j = 1 + _below(rng, i)
        t = v[i]
        v[i] = v[j]
        v[j] = t
    end
    v
end
shuffle!(v::AbstractVector) = shuffle!(default_rng(), v)
shuffle(rng::AbstractRNG, v::AbstractVector) = shuffle!(rng, collect(v))
shuffle(v::AbstractVector) = shuffle(default_rng(), v)
randperm(rng::AbstractRNG, n::Int64) = shuffle!(rng, collect(1:n))
randperm(n::Int64) = randperm(default_rng(), n)

const _default_rng = Xoshiro(0)
# Inside a threaded loop each thread's share of the iterations draws from a generator of its own
# (as each of Julia's tasks does), made from the generator of the code that runs the loop.
default_rng() = Core.task_rng(_default_rng)

# The generators of a threaded loop's `nt` shares: each seeded from the state of the generator
# running the loop and the share's number, without drawing from it (so a loop changes no
# numbers drawn after it).
function _share_rngs(nt::Int64)
    p = default_rng()
    mixed = p.s0 ⊻ _rotl(p.s1, 17) ⊻ _rotl(p.s2, 31) ⊻ _rotl(p.s3, 47)
    rngs = Vector{Xoshiro}(undef, nt)
    for t in 1:nt
        rngs[t] = Xoshiro(_splitmix64(mixed + t)[2])
    end
    rngs
end
seed!(seed::Int64) = seed!(_default_rng, seed)
