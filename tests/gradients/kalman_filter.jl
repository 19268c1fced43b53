# check: kalman_loglik([0.9, 0.1, 0.5])
# A first draft of a Kalman filter log likelihood for a local linear trend with a damped
# slope: matrices built in the loop, `I`, transposes and a scalar innovation variance.
using LinearAlgebra

const ys = [0.39, 0.85, 1.13, 1.62, 1.80, 2.31, 2.52, 3.01, 3.10, 3.62]

function kalman_loglik(θ)
    ρ, q, r = θ[1], exp(θ[2]), exp(θ[3])
    F = [1.0 1.0; 0.0 ρ]
    H = [1.0 0.0]
    Q = [q 0.0; 0.0 q]
    R = r
    x = [0.0, 0.0]
    P = Matrix(1.0I, 2, 2)
    ll = 0.0
    for y in ys
        # predict
        x = F * x
        P = F * P * F' + Q
        # update
        v = y - (H * x)[1]
        S = (H * P * H')[1] + R
        K = P * H' / S
        x = x + K[:, 1] * v
        P = (I - K * H) * P
        ll -= 0.5 * (log(2π) + log(S) + v^2 / S)
    end
    return ll
end
