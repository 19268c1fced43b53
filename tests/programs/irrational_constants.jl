# π, ℯ and the other constants of MathConstants are exact: each meets a float in that float's
# type, never equals a float, and prints by name.
println(π, " ", pi, " ", ℯ, " ", typeof(π), " ", typeof(ℯ))
println(string(π), " ", repr(ℯ), " ", "π is $(π)")
x32 = 2.0f0
println(π * x32, " ", typeof(π * x32), " ", typeof(x32 + ℯ), " ", Float32(π))
println(2π, " ", π / 2, " ", -π, " ", 1 / 2pi, " ", π + ℯ, " ", π - 1)
println(π^2, " ", π^3, " ", π^0, " ", π^1, " ", typeof(π^1), " ", π^4, " ", π^2.5)
println(ℯ^2, " ", ℯ * ℯ, " ", ℯ^0.5, " ", ℯ^-1, " ", ℯ^0)
n = 3
println(ℯ^n, " ", π^n, " ", 2^π, " ", 2.0^π)
println(π == 3.141592653589793, " ", π != 3.141592653589793, " ", π == π, " ", π == ℯ)
println(π < 3.141592653589793, " ", π > 3.141592653589793, " ", π < 3.1415926535897936)
println(3 < π < 4, " ", ℯ < π, " ", π <= π, " ", 3.1415927f0 > π, " ", 3.1415925f0 < π)
println(sin(π), " ", cos(π), " ", tan(π), " ", sincos(π), " ", sin(2π))
println(log(ℯ), " ", typeof(log(ℯ)), " ", log(ℯ, 100.0), " ", sqrt(π), " ", exp(π))
println(round(π, digits = 3), " ", float(π), " ", Float64(ℯ), " ", isinteger(π), " ", iszero(π))
println(zero(π), " ", one(π), " ", sign(-π), " ", abs(π), " ", isfinite(ℯ))
println(MathConstants.γ, " ", MathConstants.eulergamma, " ", Float64(MathConstants.γ))
println(Base.MathConstants.φ, " ", Float64(MathConstants.golden), " ", MathConstants.catalan)
println(MathConstants.e === ℯ, " ", MathConstants.pi === π, " ", Float32(MathConstants.φ))
println([π, 1.0], " ", (π, 1), " ", [2π, ℯ * 1])
gauss(x) = exp(-(x - 1.0)^2 / 2) / sqrt(2π)
println(gauss(2.0))
area(r) = π * r^2
println(area(2.0), " ", area(2.0f0), " ", typeof(area(2.0f0)), " ", area(3))
println(π^-1, " ", π^-2, " ", ℯ^-2, " ", inv(π))
