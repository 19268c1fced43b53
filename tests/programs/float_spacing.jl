# `eps(x)`: the spacing of floats at `x`; `floatmax`/`floatmin`.
println(eps(1.0), " ", eps(0.0), " ", eps(1e10), " ", eps(-3.0), " ", eps(1e-310))
println(eps(floatmax(Float64)), " ", eps(Inf), " ", eps(NaN), " ", floatmin(Float64))
println(eps(1f0), " ", eps(100f0), " ", eps(2f-40), " ", floatmax(Float32), " ", floatmin(1f0))
x = 1.0
println(x + eps(x) > x, " ", x + eps(x) / 2 == x)
