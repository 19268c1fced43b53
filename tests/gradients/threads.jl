# check: squared_residuals([0.5, -1.5], [1.0 2.0; 3.0 4.0; 5.0 6.0; -1.0 0.5; 2.0 -2.0], [1.0, 0.0, 2.0, 0.5, -1.0])
# check: per_thread_sums([0.3, -1.2, 2.5, 0.7, 1.1, -0.4, 0.9], 1.5)
# check: mapped(Float32[0.5, -0.25, 2.0], 0.75f0)
# check: particles([Particle(0.1, 0.5), Particle(-0.3, 1.2), Particle(0.8, -0.6)], 0.3)
# check: batch_mlp(Layer([0.2 -0.4; 0.7 0.1; -0.3 0.5], [0.05, -0.1, 0.2]), [0.3, -0.8])
# Threaded loops as users write them: a least-squares loss over data points, per-thread
# accumulators indexed by `threadid()`, `threaded_map!` with a closure capturing a float,
# iterations over structs, and a batch loss where every iteration reads shared weights.
function squared_residuals(w, X, y)
    r = similar(y)
    Threads.@threads for i in eachindex(y)
        r[i] = (X[i, 1] * w[1] + X[i, 2] * w[2] - y[i])^2
    end
    sum(r)
end

function per_thread_sums(x, a)
    acc = zeros(Threads.nthreads())
    Threads.@threads :static for i in eachindex(x)
        acc[Threads.threadid()] += a * x[i]^3
    end
    sum(acc)
end

mapped(x, c) = sum(threaded_map!(v -> c * sin(v) + v^2, similar(x), x))

struct Particle
    x::Float64
    v::Float64
end
function particles(ps, dt)
    e = zeros(length(ps))
    Threads.@threads for k in eachindex(ps)
        p = ps[k]
        x = p.x + dt * p.v
        e[k] = 0.5 * p.v^2 + x^2
    end
    sum(e)
end

struct Layer
    W::Matrix{Float64}
    b::Vector{Float64}
end
function batch_mlp(layer, v)
    losses = zeros(4)
    Threads.@threads for k in 1:4
        h = tanh.(layer.W * (k .* v) .+ layer.b)
        losses[k] = sum(abs2, h) / k
    end
    sum(losses)
end
