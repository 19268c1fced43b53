# Seeded random numbers: the same on every run and on both backends. The numbers are this
# implementation's (xoshiro256++), not Julia's; the properties printed below hold for any
# good generator.
using Random

Random.seed!(42)
a = rand()
v = rand(3)
Random.seed!(42)
println(a == rand(), " ", v == rand(3))
println(0.0 <= a < 1.0, " ", typeof(a), " ", typeof(rand(Float32)), " ", typeof(rand(Int)), " ", typeof(rand(Bool)))
println(size(rand(2, 3)), " ", size(rand((4, 5))), " ", size(rand(2, 3, 4)), " ", typeof(rand(Float32, 2, 2)))
println(size(randn(3)), " ", size(randn(2, 3)), " ", typeof(randn(Float32, 3)), " ", typeof(randn()))

rng = Xoshiro(1)
x = rand(rng, 3)
rng2 = Xoshiro(1)
println(x == rand(rng2, 3), " ", rand(rng, 1:6) in 1:6, " ", rand(rng, [10, 20, 30]) in (10, 20, 30))
println(rand(rng, (1.5, 2.5)) in (1.5, 2.5), " ", rand(rng, 5:5), " ", length(rand(rng, 1:3, 7)))

p = randperm(rng, 10)
println(sort(p) == collect(1:10))
s = shuffle(rng, [1, 2, 2, 3])
println(sort(s) == [1, 2, 2, 3])
A = zeros(2, 3)
rand!(rng, A)
println(all(x -> 0.0 <= x < 1.0, A))
randn!(rng, A)
println(all(x -> -10.0 < x < 10.0, A))

# Moments and frequencies of samples (bounds of five standard deviations).
n = 20000
u = rand(rng, n)
println(abs(sum(u) / n - 0.5) < 0.01, " ", minimum(u) >= 0.0, " ", maximum(u) < 1.0)
z = randn(rng, n)
println(abs(sum(z) / n) < 0.035, " ", abs(sum(abs2, z) / n - 1.0) < 0.05)
counts = zeros(Int, 6)
for k in 1:6000
    counts[rand(rng, 1:6)] += 1
end
println(all(c -> abs(c - 1000) < 150, counts))
bits = 0
for k in 1:2000
    global bits += rand(rng, Bool) ? 1 : 0
end
println(abs(bits - 1000) < 110)

# A model's data drawn once from a seeded generator.
function make_data(rng, n)
    X = randn(rng, n, 2)
    β = [2.0, -1.0]
    y = X * β .+ 0.01 .* randn(rng, n)
    X, y
end
X, y = make_data(Xoshiro(3), 100)
β̂ = (X' * X) \ (X' * y)
println(abs(β̂[1] - 2.0) < 0.01, " ", abs(β̂[2] + 1.0) < 0.01)
X2, y2 = make_data(Xoshiro(3), 100)
println(X2 == X && y2 == y)

# The stream itself (this implementation's; printed so that a change to it is noticed).
Random.seed!(2024)
println(rand(), " ", rand(1:100), " ", randn(), " ", rand(Float32))
