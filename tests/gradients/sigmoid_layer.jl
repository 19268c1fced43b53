# check: layer([0.5, -0.3, 0.8], [1.0, 2.0, -1.5])
sigmoid(x) = 1 / (1 + exp(-x))
function layer(w, x)
    s = 0.0
    for i in eachindex(w)
        s += sigmoid(w[i] * x[i])
    end
    s
end
