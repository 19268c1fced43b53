# check: misfit([log(100.0), log(1e-5), log(50.0), 0.8])
# A first draft of an impedance fit: a Randles circuit with a constant-phase element in
# complex arithmetic (`im`, complex powers, `abs2`, `angle`), fitted over log-spaced frequencies.
const freqs = 10 .^ range(-1, 5, length = 25)
const ω = 2π .* freqs

function randles(p, ω)
    R0, C, Rct, α = exp(p[1]), exp(p[2]), exp(p[3]), p[4]
    Zcpe = 1 / (C * (im * ω)^α)
    R0 + 1 / (1 / Rct + 1 / Zcpe)
end

const Zdata = [randles([log(90.0), log(2e-5), log(60.0), 0.85], w) for w in ω]

function misfit(p)
    Z = randles.(Ref(p), ω)
    sum(abs2.(Z .- Zdata) ./ abs2.(Zdata)) + 0.01 * sum(abs2, angle.(Z) .- angle.(Zdata))
end
