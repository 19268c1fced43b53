# Second derivatives of real-valued losses of complex intermediates.
# hessian: impedance_misfit([3.0, 1.0, 0.5])
# hessian: phasors([0.3, 1.2, -0.4])
function impedance_misfit(p)
    s = 0.0
    for (ω, Z) in zip([1.0, 2.0, 5.0], [3.0 - 2.0im, 3.0 + 1.0im, 3.0 + 4.5im])
        s += abs2(p[1] + im * ω * p[2] + 1 / (im * ω * p[3]) - Z)
    end
    s
end
function phasors(θ)
    z = sum(exp.(im .* θ) .* [1.0, 2.0, 0.5])
    abs(z) + real(log(z)) + abs2(sqrt(z) * z)
end
