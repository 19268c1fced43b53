# check: batch_loss(reshape(collect(0.05:0.05:0.8), 2, 2, 2, 2), [0.5, -1.0])
# A loss over a batch of small images (height × width × channel × sample), written with
# broadcasting and element reads.
function batch_loss(X, w)
    Y = tanh.(X .* w .+ 0.1)
    s = sum(abs2, Y)
    for n in 1:size(X, 4), c in 1:size(X, 3)
        s += X[1, 2, c, n] * Y[2, 1, c, n]
    end
    s + sum(abs2, sum(X; dims = 4)) + sum(X[:, 2, :, 1] .* X[1, :, 1, :]')
end
