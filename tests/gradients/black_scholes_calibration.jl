# check: price(100.0, 105.0, 0.5, 0.02, 0.25) => 5.376620585926439
# check: calibration_loss([0.2, 0.3])
# A first draft of Black–Scholes pricing with `erfc` from SpecialFunctions and `√`, and a
# volatility-smile calibration whose helper destructures its parameters.
using SpecialFunctions

Φ(x) = 0.5 * erfc(-x / √2)

function price(S, K, T, r, σ)
    d1 = (log(S / K) + (r + σ^2 / 2) * T) / (σ * √T)
    d2 = d1 - σ * √T
    S * Φ(d1) - K * exp(-r * T) * Φ(d2)
end

const strikes = [80.0, 90.0, 100.0, 110.0, 120.0]
const market = [21.5, 12.9, 6.1, 2.2, 0.65]

function smile(K, (a, b))
    m = log(K / 100.0)
    a + b * m^2
end

function calibration_loss(p)
    a, b = p
    sum((price(100.0, K, 0.5, 0.02, smile(K, (a, b))) - m)^2 for (K, m) in zip(strikes, market))
end
