# check: layer(Params([1.0 2.0; 3.0 4.0], [0.1, 0.2]), [0.5, -0.25])
# check: named_parameters((w = [0.3, -1.2], s = 2.5), [1.0, 0.5])
# A model unpacks its parameters by name, `(; W, b) = p`, from a struct or a named tuple,
# and builds named tuples from variables of the same names, `(; a, b)`.
struct Params
    W::Matrix{Float64}
    b::Vector{Float64}
end

function layer(p, x)
    (; W, b) = p
    sum(tanh.(W * x .+ b))
end

function named_parameters(θ, x)
    (; w, s) = θ
    scaled = s .* w
    q = (; scaled, s)
    sum(q.scaled .* x) + q.s^2
end
