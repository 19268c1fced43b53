# check: impedance_misfit([3.0, 1.0, 0.5])
# check: phasor_model([0.3, 1.2, -0.4])
# check: complex_input(1.0 + 2.0im)
# check: two_complex_inputs(0.5 - 1.5im, 2.0 + 0.3im)
# check: complex_vector_loss([1.0 + 0.5im, -0.3 + 2.0im, 0.8 - 0.1im])
# check: complex_solve([1.5, -0.5])
# check: inverse_functions([0.4, -0.7])
# check: complex_array_copies([0.3, 0.7, -1.1])
# check: copies_of_tuples_and_structs([0.3, 0.7, -1.1])
# check: complex_qr([0.4, -0.7, 1.1])
# Real-valued losses of complex intermediates (an impedance fit, a sum of phasors, a complex
# linear solve) and of complex inputs, whose gradient is the complex number ∂f/∂re + i ∂f/∂im
# (Mooncake's convention).
function impedance(p, ω)
    R, L, C = p
    R + im * ω * L + 1 / (im * ω * C)
end
function impedance_misfit(p)
    ωs = [1.0, 2.0, 5.0, 10.0]
    Zmeas = [3.0 - 2.0im, 3.0 + 1.0im, 3.0 + 4.5im, 3.1 + 9.9im]
    s = 0.0
    for (ω, Z) in zip(ωs, Zmeas)
        s += abs2(impedance(p, ω) - Z)
    end
    s
end
function phasor_model(θ)
    z = sum(exp.(im .* θ) .* [1.0, 2.0, 0.5])
    abs(z) + angle(z) + real(sqrt(z)) + imag(log(z * conj(z) + 1im)) + abs(z^3) + real(z / (1 + θ[1] * im))
end
complex_input(z) = abs2(z * z + 1) + real(exp(z)) + angle(z) + abs(sin(z)) + real(cos(z) * tanh(z))
two_complex_inputs(z, w) = abs(z * w - 1) + real(z / w) + imag(z^2.5) + abs2(w^-2)
complex_vector_loss(z) = sum(abs2, z) + real(sum(z .* conj.(reverse(z)))) + abs(prod(z))
function complex_solve(p)
    A = [2.0+p[1]*im 1.0; 0.5im 3.0-p[2]*im]
    b = [1.0 + 0.0im, 2.0im]
    x = A \ b
    sum(abs2, x) + real(x[1] * x[2])
end

# The inverse trigonometric and hyperbolic functions of a complex intermediate.
function inverse_functions(x)
    z = complex(x[1], x[2])
    abs2(asin(z)) + real(acos(z) * atan(z)) + imag(asinh(z)) + abs(acosh(2z)) + real(atanh(z / 2))
end

# Arrays of complex numbers copied, permuted, reversed and written column by column; copies of
# arrays of tuples and of immutable structs of floats.
function complex_array_copies(x)
    z = [complex(x[1], x[2]), complex(x[3], -x[1]), complex(x[2] * x[3], 1.0)]
    w = copy(z)
    r = reverse(z)
    p = z[[3, 1, 2]]
    M = zeros(ComplexF64, 3, 2)
    M[:, 1] = z
    M[:, 2] = r
    Z = reshape(copy(z), 1, 3)
    W = vcat(Z, conj(Z))
    sum(abs2, w) + real(sum(r .* p)) + abs(sum(M)) + sum(abs2, W * transpose(Z)) + real(sum(permutedims(W)))
end
struct PairOfFloats
    a::Float64
    b::Float64
end
function copies_of_tuples_and_structs(x)
    v = [(x[1], x[2]), (x[3], 1.0)]
    w = copy(v)
    w[1] = (w[1][1] * 2, w[1][2])
    s = [PairOfFloats(x[1], x[2]), PairOfFloats(x[3], 1.0)]
    t = copy(s)
    v[1][1] * w[1][1] + w[2][1]^2 + v[2][2] + sum(p.a * p.b for p in t) + s[1].a
end

using LinearAlgebra
# A complex QR factorisation and the least-squares solve through it.
function complex_qr(p)
    A = [p[1]+1im 2.0; 0.5im p[2]; 2.0 p[3]-1im]
    F = qr(A)
    sum(abs2, F.R[1, :]) + real(F.R[2, 2]) + sum(abs2, F \ [1.0, 2.0im, p[1]])
end
