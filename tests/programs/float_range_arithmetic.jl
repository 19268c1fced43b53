# Arithmetic on float ranges gives ranges, as in Julia: the reference value and step of the
# result are computed in twice precision, so elements are the floats nearest their exact values.
ts = 0:0.1:1
println(2 .* ts .+ 1)
println(ts .+ 1, " ", ts .- 1, " ", 1 .- ts)
println(ts ./ 3, " ", ts / 10, " ", 2ts, " ", ts * 3)
println(collect(ts .* 3))
println(collect(3ts))
println((2 .* ts)[4], " ", (ts .+ 0.2)[2], " ", sum(2 .* ts), " ", length(ts .* 5))
println(-ts, " ", .-ts)
println(ts + ts, " ", ts - 2ts, " ", (ts + ts)[4])
println((0:0.25:1) + (1:0.25:2), " ", (-1:0.5:1) + (0:0.5:2))
println(0 .* ts)
println(typeof(2 .* ts))
println(sin.(ts .* 2)[3] == sin(ts[3] * 2), " ", sin.(2 .* ts)[3])
println(3 ./ (1:0.5:2), " ", (0:0.1:0.3) .* (1:4))
# Integer ranges scaled by floats or divided become float ranges.
r = 1:5
println(r .* 0.1, " ", collect(r .* 0.1))
println(0.5 .* r, " ", 0.5 * r, " ", r / 2, " ", r ./ 4, " ", 2 .\ r, " ", 2 .\ [1.0, 3.0])
println((0:4) / 10, " ", ((0:4) / 10)[4])
# LinRange: arithmetic on its endpoints.
l = LinRange(0, 1, 5)
println(l .+ 1, " ", 2 .* l, " ", l / 4, " ", -l, " ", l + l, " ", 2 .\ l)
# Integer StepRangeLens with other integer ranges.
s = 2 .* (1:3)
println(s + (1:3), " ", (1:3) - s, " ", -s, " ", s .+ (1:3), " ", 3 * s)
println(0 .* (1:4))
println(Base.OneTo(3) + s, " ", s - Base.OneTo(3), " ", step(Base.OneTo(3)), " ", 0.5 .* Base.OneTo(4))
