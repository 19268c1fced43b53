# A gated recurrent unit run over a short input sequence; the loss is the squared distance of
# the final hidden state from a target, as a function of the recurrent weights (flattened).
# mooncake grad examples/models/gru.jl --call 'loss(U0())'
# check: loss(U0())
σ(x) = 1 / (1 + exp(-x))

inputs = [[0.5, -1.0], [0.2, 0.3], [-0.7, 0.8], [1.0, 0.1]]
Wz = [0.1 0.2; -0.3 0.4; 0.2 0.1]
Wr = [0.3 -0.1; 0.2 0.2; -0.1 0.5]
Wh = [0.4 0.1; -0.2 0.3; 0.1 -0.4]
target = [0.2, -0.1, 0.3]
U0() = [0.1 * cos(i) for i in 1:27]

function step(h, x, Uz, Ur, Uh)
    z = σ.(Wz * x + Uz * h)
    r = σ.(Wr * x + Ur * h)
    h̃ = tanh.(Wh * x + Uh * (r .* h))
    (1 .- z) .* h + z .* h̃
end

function loss(u)
    Uz = reshape(u[1:9], 3, 3)
    Ur = reshape(u[10:18], 3, 3)
    Uh = reshape(u[19:27], 3, 3)
    h = zeros(3)
    for x in inputs
        h = step(h, x, Uz, Ur, Uh)
    end
    sum(abs2, h - target)
end

println("loss(U0) = ", loss(U0()))
