# check: spectral_abscissa([0.3, -1.2, 0.8])
# check: complex_spectrum([0.3, -1.2, 0.8])
# check: real_spectrum([0.3, -1.2, 0.8])
# check: eigenvector_loss([0.3, -1.2, 0.8])
# check: damped_modes([0.4, 2.0])
using LinearAlgebra
# Eigenvalues of non-symmetric matrices: complex conjugate pairs, real spectra, eigenvectors,
# and the stability margin of a linear system (its spectral abscissa).
function system_matrix(p)
    [p[1] 2.0 0.5 0.1; -3.0 1.0+p[2] 2.0 0.0; 0.5 0.25 4.0 p[3]; 0.2 -1.0 0.3 -2.0]
end
spectral_abscissa(p) = maximum(real, eigvals(system_matrix(p)))
function complex_spectrum(p)
    λ = eigvals(system_matrix(p))
    sum(abs2, λ) + sum(imag(z)^2 for z in λ) + real(prod(λ))
end
function real_spectrum(p)
    A = [2.0+p[1] 1.0 0.0; 0.5 -1.0 p[2]; 0.0 0.25 3.0+p[3]]
    F = eigen(A)
    sum(F.values .^ 3) + abs2(F.vectors[1, 2]) + abs(F.vectors[3, 3])
end
function eigenvector_loss(p)
    F = eigen(system_matrix(p))
    V = F.vectors
    sum(abs2, V[2, :]) + abs(V[1, 1]) + real(V[3, 1] * V[4, 2]) + abs2(F.values[1])
end
# A damped oscillator x'' + c x' + k x = 0 as a first-order system: its eigenvalues are
# -c/2 ± i sqrt(k - c²/4) while it oscillates.
function damped_modes(θ)
    c, k = θ
    A = [0.0 1.0; -k -c]
    λ = eigvals(A)
    real(λ[1]) + imag(λ[2])^2 + abs(λ[1] - λ[2])
end
