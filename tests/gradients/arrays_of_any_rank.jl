# check: volume_loss(reshape(collect(0.02:0.02:0.96), 2, 3, 2, 2, 2), [0.5, -1.0])
# check: sliced_energy(reshape(collect(0.1:0.1:3.2), 2, 2, 2, 2, 2))
# A loss over a batch of small volumes (x × y × z × channel × sample), written with
# broadcasting, element reads, reductions over dimensions, selections and views.
function volume_loss(X, w)
    Y = tanh.(X .* reshape(w, 1, 1, 1, 1, 2) .+ 0.1)
    s = sum(abs2, Y)
    for n in 1:size(X, 5), c in 1:size(X, 4)
        s += X[1, 2, 1, c, n] * Y[2, 3, 2, c, n]
    end
    s += sum(abs2, sum(X; dims = (3, 5)))
    s + sum(X[:, 2, :, 1, 2] .* view(X, 2, 1:2, :, 2, 1)')
end
function sliced_energy(X)
    Z = zeros(2, 2, 2, 2, 2)
    Z[:, :, 1, :, :] = X[:, :, 2, :, :] .^ 2
    Z[1, 2, 2, 2, 2] = sin(X[1, 1, 1, 1, 1])
    sum(Z .* X) + maximum(X .* X; dims = 2)[1, 1, 2, 1, 2]
end
