# check: gaussian_density([0.3, -1.2, 2.0])
# check: circle_areas([0.5, 1.5])
# check: exp_base([0.4, -0.7])
# check: lower_symmetric([0.8, 0.1, -0.3, 1.4])
# check: by_mode([1.1, 0.6])
# check: float32_area(Float32[0.5, 1.25])
using LinearAlgebra
# π and ℯ are exact constants that meet floats as floats.
gaussian_density(x) = sum(exp.(-x .^ 2 ./ 2) ./ sqrt(2π))
circle_areas(r) = sum(π .* r .^ 2) + 2π * r[1] - π / r[2]
exp_base(x) = ℯ^x[1] + ℯ^2 * x[2] + MathConstants.γ * x[1] * x[2]
float32_area(r) = sum(π .* r .^ 2)
# The lower triangle defines a symmetric matrix built with `:L`.
function lower_symmetric(v)
    A = [2.0+v[1] 9.0; v[2] 3.0+v[4]]
    S = Symmetric(A, :L)
    b = [1.0, v[3]]
    dot(b, S * b) + sum(S \ b) + logdet(S + 2.0 * I)
end
# A symbol chooses the computation.
scaled(x, mode::Symbol) = mode === :square ? x^2 : mode === :cube ? x^3 : x
by_mode(x) = scaled(x[1], :square) + scaled(x[2], :cube) + scaled(x[1] * x[2], :other)
