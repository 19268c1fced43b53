# check: mlp([0.1, -0.2, 0.3, 0.4, 0.5, -0.6], [0.7, -0.8], [1.0, 2.0, 3.0])
function mlp(w1, w2, x)
    h = zeros(2)
    for i in 1:2
        s = 0.0
        for j in 1:3
            s += w1[(i - 1) * 3 + j] * x[j]
        end
        h[i] = tanh(s)
    end
    w2[1] * h[1] + w2[2] * h[2]
end
