# Low-rank matrix factorisation: the squared error of U * V' on the observed entries of a
# ratings matrix, plus weight decay; the parameters are U and V stacked in one vector.
# mooncake grad examples/models/matrix_factorisation.jl --call 'loss(θ0())'
# check: loss(θ0())
R = [5.0 3.0 0.0 1.0; 4.0 0.0 0.0 1.0; 1.0 1.0 0.0 5.0; 0.0 1.0 5.0 4.0]
observed = R .> 0
rank = 2
θ0() = [0.1 * sin(i) for i in 1:(2 * rank * 4)]

function loss(θ)
    U = reshape(θ[1:8], 4, rank)
    V = reshape(θ[9:16], 4, rank)
    E = (U * V' - R) .* observed
    sum(abs2, E) + 0.01 * (sum(abs2, U) + sum(abs2, V))
end

println("loss(θ0) = ", loss(θ0()))
