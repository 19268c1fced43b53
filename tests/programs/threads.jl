# Threads.@threads loops: every iteration runs once, each thread's share as Julia divides it.
println(Threads.nthreads())

function squares(n)
    out = zeros(Int, n)
    Threads.@threads for i in 1:n
        out[i] = i^2
    end
    out
end
println(squares(10))

# The thread that ran each iteration: 10 iterations on 4 threads are shared 3, 3, 2, 2.
function owners(n)
    t = zeros(Int, n)
    Threads.@threads :static for i in 1:n
        t[i] = Threads.threadid()
    end
    t
end
println(owners(10))
println(owners(3))
println(owners(0))

# Any indexable collection: the loop variable takes its elements.
function over(xs)
    out = similar(xs)
    Threads.@threads for x in xs
        k = findfirst(y -> y == x, xs)
        out[k] = 2x
    end
    out
end
println(over([1.5, 2.5, 4.0]))
println(over([1 2; 3 4]))

# Per-thread partial sums, combined after the loop.
function partial_sums(x)
    acc = zeros(Threads.nthreads())
    Threads.@threads :static for i in eachindex(x)
        acc[Threads.threadid()] += x[i]
    end
    acc
end
println(partial_sums(collect(1.0:10.0)))

# The loop variable is a new local of each iteration; locals of the body stay inside.
function scoping()
    i = 100
    hits = zeros(Int, 4)
    Threads.@threads for i in 1:4
        j = i + 1
        hits[i] = j
    end
    (i, hits)
end
println(scoping())

# A closure's captured value and a struct's fields are read by every iteration.
struct Scale
    a::Float64
end
function scaled(s::Scale, x)
    y = similar(x)
    f = v -> s.a * v
    Threads.@threads for i in eachindex(x)
        y[i] = f(x[i])
    end
    y
end
println(scaled(Scale(3.0), [1.0, 2.0, 3.0, 4.0, 5.0]))

# Nested threaded loops: the inner one runs inside each iteration of the outer.
function table(n, m)
    t = zeros(Int, n, m)
    Threads.@threads for i in 1:n
        Threads.@threads for j in 1:m
            t[i, j] = 10i + j
        end
    end
    t
end
println(table(3, 4))

# threaded_map! with one, two and three inputs of any element type.
println(threaded_map!(x -> x^2, zeros(5), [1.0, 2.0, 3.0, 4.0, 5.0]))
println(threaded_map!(+, zeros(Int, 3), [1, 2, 3], [10, 20, 30]))
println(threaded_map!((a, b, c) -> a * b + c, zeros(Float32, 2), Float32[1, 2], Float32[3, 4], Float32[5, 6]))
println(threaded_map!(p -> p[1] + p[2], zeros(3), [(1.0, 2.0), (3.0, 4.0), (5.0, 6.0)]))

# A top-level loop.
total = zeros(6)
Threads.@threads for k in 1:6
    total[k] = k / 2
end
println(total)
println(Threads.threadid())

# Random numbers inside a threaded loop: each thread's share draws from a generator of its own,
# made from the seeded generator without drawing from it, so the numbers are the same on every
# run and the numbers drawn after the loop do not depend on it.
using Random
Random.seed!(7)
function draws(n)
    out = zeros(n)
    Threads.@threads for i in 1:n
        out[i] = rand()
    end
    out
end
a = draws(6)
b = rand()
Random.seed!(7)
println(draws(6) == a, " ", rand() == b)
Random.seed!(7)
println(rand() == b)
