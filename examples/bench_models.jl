# Models for the README's model table, at the sizes it names, each beside a hand-written Rust
# primal and value+gradient in the benchmark suite (`cargo bench -p mooncake --bench models`).
# Inputs are built from sines and cosines of their indices, so the Rust versions build the same.
#   mooncake bench examples/bench_models.jl --call 'cross_entropy(classifier0())'
# check: cross_entropy(classifier0())
# check: nll(logistic0())
# check: lv_miss(rates0())
# check: heat_misfit(profile0())
# check: final_energy(positions0())
# check: gru_loss(recurrent0())
# check: attention_loss(head0())
# check: conv_loss(kernel0())
using LinearAlgebra

σ(z) = 1 / (1 + exp(-z))

# Softmax cross-entropy of a linear classifier: 10 classes, 32 features, 64 samples.
const sm_X = [cos(0.1 * (i + 3j)) for i in 1:32, j in 1:64]
const sm_labels = [1 + (7j) % 10 for j in 1:64]
classifier0() = [0.05 * sin(1.0 * (i + 2j)) for i in 1:10, j in 1:32]

function softmax_columns(Z)
    E = exp.(Z .- maximum(Z, dims = 1))
    E ./ sum(E, dims = 1)
end

function cross_entropy(W)
    P = softmax_columns(W * sm_X)
    -sum(log(P[sm_labels[j], j]) for j in 1:length(sm_labels)) / length(sm_labels)
end

# Logistic regression: 256 samples, 8 features and an intercept.
const lr_X = [sin(0.3 * i + 0.7 * j) for i in 1:256, j in 1:8]
const lr_y = [sin(1.3 * i) > 0 ? 1.0 : 0.0 for i in 1:256]
logistic0() = [0.1 * cos(1.0 * j) for j in 1:9]

function nll(θ)
    w = θ[1:8]
    b = θ[9]
    p = σ.(lr_X * w .+ b)
    -sum(lr_y .* log.(p) .+ (1 .- lr_y) .* log.(1 .- p)) / length(lr_y)
end

# Lotka–Volterra predator and prey, 200 steps of classic Runge–Kutta; the loss is the distance
# of the final state from a target, as a function of the four rates.
lotka_volterra(u, p) = [p[1] * u[1] - p[2] * u[1] * u[2], p[4] * u[1] * u[2] - p[3] * u[2]]

function rk4(f, u, p, h, steps)
    for _ in 1:steps
        k1 = f(u, p)
        k2 = f(u + h / 2 * k1, p)
        k3 = f(u + h / 2 * k2, p)
        k4 = f(u + h * k3, p)
        u = u + h / 6 * (k1 + 2k2 + 2k3 + k4)
    end
    u
end

const lv_target = [1.2, 0.8]
rates0() = [1.5, 1.0, 3.0, 1.0]
lv_miss(p) = sum(abs2, rk4(lotka_volterra, [1.0, 1.0], p, 0.01, 200) - lv_target)

# The 1-d heat equation, 100 cells and 200 explicit steps (a fresh array per step); the loss
# compares the final profile with a measured one, as a function of the initial profile.
function heat_step(u, α)
    v = copy(u)
    for i in 2:length(u)-1
        v[i] = u[i] + α * (u[i-1] - 2u[i] + u[i+1])
    end
    v
end

function heat_evolve(u, α, steps)
    for _ in 1:steps
        u = heat_step(u, α)
    end
    u
end

const heat_measured = [0.3 * sin(π * (i - 1) / 99) for i in 1:100]
profile0() = [sin(π * (i - 1) / 99) + 0.1 * sin(7.0 * i) for i in 1:100]
heat_misfit(u) = sum(abs2, heat_evolve(u, 0.2, 200) - heat_measured)

# Five bodies under gravity, 100 leapfrog steps; the final energy as a function of the
# initial positions (x1, y1, x2, y2, ...).
const nb_masses = [1.0, 0.5, 0.3, 0.2, 0.1]

function accelerations(x, y)
    n = length(x)
    ax = zeros(n)
    ay = zeros(n)
    for i in 1:n, j in 1:n
        if i != j
            dx = x[j] - x[i]
            dy = y[j] - y[i]
            r3 = (dx^2 + dy^2 + 0.01)^1.5
            ax[i] += nb_masses[j] * dx / r3
            ay[i] += nb_masses[j] * dy / r3
        end
    end
    ax, ay
end

function energy(x, y, vx, vy)
    e = sum(0.5 * nb_masses .* (vx .^ 2 + vy .^ 2))
    for i in 1:length(x), j in (i + 1):length(x)
        e -= nb_masses[i] * nb_masses[j] / sqrt((x[i] - x[j])^2 + (y[i] - y[j])^2 + 0.01)
    end
    e
end

function final_energy(p)
    x = p[1:2:end]
    y = p[2:2:end]
    vx = [0.1 * cos(1.0 * i) for i in 1:5]
    vy = [0.1 * sin(1.0 * i) for i in 1:5]
    h = 0.01
    for _ in 1:100
        ax, ay = accelerations(x, y)
        vx = vx + h / 2 * ax
        vy = vy + h / 2 * ay
        x = x + h * vx
        y = y + h * vy
        ax, ay = accelerations(x, y)
        vx = vx + h / 2 * ax
        vy = vy + h / 2 * ay
    end
    energy(x, y, vx, vy)
end

positions0() = [cos(1.3 * k) * (1 + k ÷ 2) for k in 0:9]

# A gated recurrent unit (hidden size 8, inputs of 4) over 20 steps; the loss is the squared
# distance of the final state from a target, as a function of the recurrent weights.
struct Recurrent
    Uz::Matrix{Float64}
    Ur::Matrix{Float64}
    Uh::Matrix{Float64}
end

const gru_inputs = [[sin(1.0 * (t + 3k)) for k in 1:4] for t in 1:20]
const gru_Wz = [0.3 * cos(1.0 * (i + 2j)) for i in 1:8, j in 1:4]
const gru_Wr = [0.3 * sin(1.0 * (2i + j)) for i in 1:8, j in 1:4]
const gru_Wh = [0.3 * cos(1.0 * (i * j)) for i in 1:8, j in 1:4]
const gru_target = [0.2 * sin(1.0 * i) for i in 1:8]
recurrent0() = Recurrent([0.2 * sin(1.0 * (i + 5j)) for i in 1:8, j in 1:8],
                         [0.2 * cos(1.0 * (3i + j)) for i in 1:8, j in 1:8],
                         [0.2 * sin(1.0 * (i * j + 1)) for i in 1:8, j in 1:8])

function gru_step(h, x, U::Recurrent)
    z = σ.(gru_Wz * x + U.Uz * h)
    r = σ.(gru_Wr * x + U.Ur * h)
    h̃ = tanh.(gru_Wh * x + U.Uh * (r .* h))
    (1 .- z) .* h + z .* h̃
end

function gru_loss(U::Recurrent)
    h = zeros(8)
    for x in gru_inputs
        h = gru_step(h, x, U)
    end
    sum(abs2, h - gru_target)
end

# One head of scaled dot-product self-attention over 16 tokens of 8 features (tokens are
# columns) and a squared-error readout, as a function of the three projections.
struct Head
    Wq::Matrix{Float64}
    Wk::Matrix{Float64}
    Wv::Matrix{Float64}
end

const at_X = [sin(0.5 * i + 0.3 * j) for i in 1:8, j in 1:16]
const at_target = [0.5 * cos(1.0 * (i - j)) for i in 1:8, j in 1:16]
head0() = Head([0.3 * sin(1.0 * (i + 2j)) for i in 1:8, j in 1:8],
               [0.3 * cos(1.0 * (2i + j)) for i in 1:8, j in 1:8],
               [0.3 * sin(1.0 * (i * j)) for i in 1:8, j in 1:8])

function attend(H::Head, X)
    Q = H.Wq * X
    K = H.Wk * X
    V = H.Wv * X
    V * softmax_columns(K' * Q / sqrt(size(Q, 1)))
end

attention_loss(H::Head) = sum(abs2, attend(H, at_X) - at_target)

# A 1-d convolution (a kernel of 9 taps over a signal of 512 samples) through tanh, fitted by
# squared error, as a function of the kernel.
const conv_signal = [sin(0.05 * i) + 0.2 * cos(0.7 * i) for i in 1:512]
const conv_target = [0.5 * sin(0.05 * i + 0.2) for i in 1:504]
kernel0() = [0.1 * cos(1.0 * j) for j in 1:9]

function conv1d(w, x)
    k = length(w)
    [sum(w[j] * x[i + j - 1] for j in 1:k) for i in 1:length(x) - k + 1]
end

conv_loss(w) = sum(abs2, tanh.(conv1d(w, conv_signal)) - conv_target)
