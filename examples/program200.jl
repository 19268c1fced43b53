# A 200-line program exercising the language core: structs, dispatch, loops, arrays,
# matrices, tuples, closures-free numerics. Used to measure parse-to-result time.

abstract type Body end

mutable struct Particle <: Body
    pos::Vector{Float64}
    vel::Vector{Float64}
    mass::Float64
end

struct Wall <: Body
    normal::Vector{Float64}
    offset::Float64
end

struct Stats
    mean::Float64
    var::Float64
    n::Int
end

kinetic(p::Particle) = 0.5 * p.mass * dot(p.vel, p.vel)
kinetic(w::Wall) = 0.0

function potential(p::Particle, g::Float64)
    p.mass * g * p.pos[2]
end

function step!(p::Particle, dt::Float64, g::Float64)
    p.vel[2] -= g * dt
    for k in 1:2
        p.pos[k] += p.vel[k] * dt
    end
    if p.pos[2] < 0.0
        p.pos[2] = -p.pos[2]
        p.vel[2] = -0.9 * p.vel[2]
    end
    p
end

function simulate(n::Int, steps::Int)
    ps = Particle[]
    for i in 1:n
        push!(ps, Particle([Float64(i), 10.0 + i], [1.0, 0.0], 1.0 + i / 10))
    end
    energies = zeros(steps)
    for t in 1:steps
        e = 0.0
        for p in ps
            step!(p, 0.01, 9.81)
            e += kinetic(p) + potential(p, 9.81)
        end
        energies[t] = e
    end
    energies
end

function stats(v::Vector{Float64})
    n = length(v)
    m = sum(v) / n
    s = 0.0
    for x in v
        s += (x - m)^2
    end
    Stats(m, s / (n - 1), n)
end

function matmul(A::Matrix{Float64}, B::Matrix{Float64})
    m, k = size(A)
    n = size(B, 2)
    C = zeros(m, n)
    for j in 1:n
        for l in 1:k
            b = B[l, j]
            for i in 1:m
                C[i, j] += A[i, l] * b
            end
        end
    end
    C
end

function identity_matrix(n)
    I = zeros(n, n)
    for i in 1:n
        I[i, i] = 1.0
    end
    I
end

function power_iteration(A::Matrix{Float64}, iters::Int)
    n = size(A, 1)
    v = ones(n)
    lambda = 0.0
    for it in 1:iters
        w = A * v
        lambda = norm(w)
        for i in 1:n
            v[i] = w[i] / lambda
        end
    end
    lambda
end

function primes_upto(n)
    sieve = fill(true, n)
    sieve[1] = false
    for i in 2:n
        if sieve[i]
            j = i * i
            while j <= n
                sieve[j] = false
                j += i
            end
        end
    end
    out = Int[]
    for i in 1:n
        sieve[i] && push!(out, i)
    end
    out
end

function gcd2(a::Int, b::Int)
    while b != 0
        a, b = b, a % b
    end
    abs(a)
end

function collatz_len(n::Int)
    len = 1
    while n != 1
        n = iseven(n) ? n ÷ 2 : 3n + 1
        len += 1
    end
    len
end

function longest_collatz(limit)
    best, arg = 0, 0
    for i in 1:limit
        l = collatz_len(i)
        if l > best
            best, arg = l, i
        end
    end
    (arg, best)
end

function trapezoid(a, b, n)
    h = (b - a) / n
    s = 0.5 * (sin(a) + sin(b))
    for i in 1:n-1
        s += sin(a + i * h)
    end
    s * h
end

function newton_sqrt(x; )
    y = x
    for i in 1:20
        y = 0.5 * (y + x / y)
    end
    y
end

describe(x::Int) = "int $x"
describe(x::Float64) = "float $(round(x))"
describe(x::String) = "string of length $(length(x))"
describe(x) = "other"

function describe_all()
    items = Any[1, 2.5, "abc", nothing]
    out = String[]
    for it in items
        push!(out, describe(it))
    end
    out
end

function fib_table(n)
    t = zeros(Int, n)
    t[1] = 1
    t[2] = 1
    for i in 3:n
        t[i] = t[i-1] + t[i-2]
    end
    t
end

function main()
    e = simulate(8, 200)
    s = stats(e)
    println("energy mean ", round(s.mean), " over ", s.n, " steps")
    A = [2.0 1.0 0.0; 1.0 3.0 1.0; 0.0 1.0 4.0]
    B = matmul(A, identity_matrix(3))
    println("matmul ok: ", B == A)
    println("dominant eigenvalue ≈ ", round(power_iteration(A, 50)))
    p = primes_upto(100)
    println(length(p), " primes up to 100, last ", p[end])
    println("gcd ", gcd2(462, 1071))
    println("longest collatz below 1000: ", longest_collatz(1000))
    println("∫sin over [0, π] ≈ ", round(trapezoid(0.0, pi, 1000)))
    println("sqrt(2) ≈ ", newton_sqrt(2.0))
    println(describe_all())
    println(fib_table(15))
end

main()
