# Complex numbers as Julia computes and prints them: literals with `im`, arithmetic, division,
# powers, elementary functions, promotion, arrays, adjoints, linear solves, and their errors.
z = 1.0 + 2.0im
println(z, " ", typeof(z), " ", im, " ", im * im, " ", 2im, " ", typeof(2im), " ", 3 - 2im)
println(z * z, " ", z / (3.0 - 1.0im), " ", inv(z), " ", abs(z), " ", abs2(z), " ", angle(z), " ", conj(z))
println(sqrt(z), " ", exp(z), " ", log(z), " ", z^2, " ", z^-1, " ", z^0.5, " ", z^(1 + 1im), " ", 2.0^z)
println(sin(z), " ", cos(z), " ", tan(z), " ", sinh(z), " ", cosh(z), " ", tanh(z), " ", cis(0.5))
println(sqrt(-1.0 + 0im), " ", complex(1, 2), " ", Complex(1.5), " ", real(z), " ", imag(z), " ", reim(z))
println([1.0 + 2im, 3 - 1im], " ", Complex{Float64}[1, 2], " ", [1 + 2im 3im; 4 5])
println(Complex(NaN, Inf), " ", Complex(1.0, -0.0), " ", z == 1 + 2im, " ", isreal(1.0 + 0im), " ", 1.0 + 0im == 1)
A = [1.0+1im 2.0; 0.5im 3.0]
x = [1.0 + 0im, 2.0 - 1im]
println(A * x, " ", sum(x), " ", dot(x, x), " ", A')
println(exp(1im * π), " ", (-8.0 + 0im)^(1/3), " ", log(-1.0 + 0im), " ", sqrt(-4 + 0im), " ", abs(3 + 4im))
A = [2.0+1im 1.0; 0.5im 3.0-1im]
b = [1.0 + 0im, 2.0im]
x = A \ b
println(round.(x; digits = 12), " ", A * x ≈ b)
θ = [0.0, π / 2, π]
z = exp.(im .* θ)
println(z, " ", abs.(z), " ", real.(z), " ", sum(z), " ", prod([1 + 1im, 1 - 1im]))
println(zeros(ComplexF64, 2), " ", ones(Complex{Float64}, 2), " ", Vector{ComplexF64}(undef, 0))
println(complex([1.0, 2.0]), " ", conj([1 + 2im]), " ", real([1.0 + 2im]), " ", imag([1.0 + 2im]))
println(transpose(A), " ", A', " ", [1 + 1im, 2]')
println(1.0im, " ", -0.0im, " ", 1 / (1 + 0im), " ", (1 + 2im)^3, " ", (2 + 0im)^-2, " ", isapprox(1 + 1e-12im, 1))
println(typeof(ComplexF64(1)), " ", ComplexF64(1, 2), " ", Complex{Int64}(3), " ", promote(1.0, 2im), " ", convert(ComplexF64, 2))
println(muladd(2.0, 1 + 1im, 3.0), " ", sign(3 + 4im), " ", round(1.26 + 2.5im; digits = 1))
println(string(1 + 2im), " ", "z = $(1.5 - 2im)", " ", repr(3im))
try
    (1 + 2im) < (2 + 1im)
catch e
    println(typeof(e), " ", e.f, " ", e.args)
end
try
    Float64(1.0 + 2.0im)
catch e
    println(e)
end
println(Float64(3.0 + 0.0im), " ", isequal(1.0 + 0.0im, 1.0), " ", Complex(true, false), " ", im^2, " ", cis(π / 3) ≈ 0.5 + sqrt(3) / 2 * im)
println(round(det([1.0+1im 2.0; 3.0 4.0-1im]); digits = 12), " ", inv(3.0 - 4.0im), " ", (1e300 + 1e300im) / (1e300 - 1e300im), " ", inv(1e-310 + 1e-310im))
using LinearAlgebra
Ac = [1.0+2im 2.0; 3.0 4.0-1im]
Fq = qr(Ac)
println(round.(Fq.R; digits = 10), " ", typeof(Fq.R), " ", Matrix(Fq.Q) * Fq.R ≈ Ac, " ", Fq \ [1.0+0im, 2.0] ≈ Ac \ [1.0+0im, 2.0], " ", Matrix(Fq.Q)' * Matrix(Fq.Q) ≈ I)
Qc, Rc = qr([1.0+1im 2.0; 0.5im 1.0; 2.0 -1.0im])
println(size(Qc), " ", size(Rc), " ", Matrix(Qc) * Rc ≈ [1.0+1im 2.0; 0.5im 1.0; 2.0 -1.0im], " ", round(real(Rc[1, 1]); digits = 10), " ", imag(Rc[2, 2]))
