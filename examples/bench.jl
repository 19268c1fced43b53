# The benchmark programs of the README's performance table: A (`s += cos(exp(x[n]))`), B
# (`s += 5 * x[n]`), Rosenbrock and a naive matrix multiply. Inputs: `xs(n)` (a vector of n values in
# [-0.5, 0.5]) and `ms(n)` (an n×n matrix).
#   mooncake bench examples/bench.jl --call 'program_a(xs(1024))'

function program_a(x)
    s = 0.0
    for n in eachindex(x)
        s += cos(exp(x[n]))
    end
    s
end

function program_b(x)
    s = 0.0
    for n in eachindex(x)
        s += 5 * x[n]
    end
    s
end

function rosenbrock(x)
    s = 0.0
    for i in 1:length(x)-1
        s += 100 * (x[i+1] - x[i]^2)^2 + (1 - x[i])^2
    end
    s
end

# sum(A * B), with the product written out.
function matmul_sum(A, B)
    n = size(A, 1)
    C = zeros(n, n)
    for j in 1:n
        for k in 1:n
            b = B[k, j]
            for i in 1:n
                C[i, j] += A[i, k] * b
            end
        end
    end
    s = 0.0
    for v in C
        s += v
    end
    s
end

function xs(n)
    x = zeros(n)
    for i in 1:n
        x[i] = 0.5 * sin(1.0 * i)
    end
    x
end

function ms(n)
    A = zeros(n, n)
    for j in 1:n
        for i in 1:n
            A[i, j] = 0.5 * sin(1.0 * (i + n * j))
        end
    end
    A
end

# The same product with `*` (the optimised kernel), and a two-layer perceptron's loss on a
# batch of 64 samples (`W1` 64×32, inputs 32×64, `W2` 8×64): `mlp_batch(w1(), batch())`.
matprod_sum(A, B) = sum(A * B)
struct Batch
    X::Matrix{Float64}
    Y::Matrix{Float64}
    W2::Matrix{Float64}
end
w1() = [0.1 * sin(1.0 * (i + 3j)) for i in 1:64, j in 1:32]
batch() = Batch([cos(1.0 * (i + j)) for i in 1:32, j in 1:64], [sin(1.0 * (i - j)) for i in 1:8, j in 1:64], [0.05 * cos(1.0 * i * j) for i in 1:8, j in 1:64])
function mlp_batch(W1, b::Batch)
    H = tanh.(W1 * b.X)
    sum(abs2, b.W2 * H - b.Y) / size(b.X, 2)
end

# Dynamic dispatch: a loop over a `Vector{Any}` of floats, each call of `sq`
# dispatched at run time, beside the same loop over a `Vector{Float64}`.
sq(x) = x * x
function dyn_sum(xs)
    s = 0.0
    for v in xs
        s += sq(v)
    end
    s
end
anys(n) = Any[0.5 * sin(1.0 * i) for i in 1:n]

# A fused broadcast then `sum`, beside the same loop written out.
fused(x) = sum(sin.(x) .* x .+ 1.0)
function fused_loop(x)
    s = 0.0
    for i in eachindex(x)
        s += sin(x[i]) * x[i] + 1.0
    end
    s
end

# Forward mode: a function of 16 inputs, whose gradient takes two passes of 8-lane
# duals; Rosenbrock's Hessian (forward over reverse) at n = 16 and 256.
function sixteen(x)
    s = 0.0
    for i in 1:16
        s += sin(x[i]) * exp(0.1 * x[17-i]) + x[i]^2
    end
    s
end

# Small arrays on the heap, per iteration (the primal ÷ n): a new 8-vector made, written,
# read and freed; the product of an 8×8 matrix with an 8-vector (a new vector).
#   mooncake bench examples/bench.jl --call 'fresh_vectors(xs(8), 1000)'
#   mooncake bench examples/bench.jl --call 'small_products(ms(8), xs(8), 1000)'
function fresh_vectors(x, n)
    s = 0.0
    for k in 1:n
        y = similar(x)
        y[1] = x[k % 8 + 1]
        s += y[1]
    end
    s
end
function small_products(W, x, n)
    s = 0.0
    for k in 1:n
        y = W * x
        s += y[k % 8 + 1]
    end
    s
end
