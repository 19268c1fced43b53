# Fused broadcasts over more than four arrays and scalars, into new arrays and with `.=`;
# only scalars and Refs give a scalar.
x = [1.0, 2.0]; y = [3.0, 4.0]; z = [5.0, 6.0]; w = [0.5, 0.25]; v = [2.0, 2.0]; u = [1.0 2.0]
println(x .+ y .* z .- w ./ v)
println(x .+ y .* z .- w ./ v .+ u)
println(@. x + y * z - w / v + 2.0 * x * y + z ^ 2 - w + v * u)
a = 1.0; b = 2.0; c = 3.0; d = 4.0; e = 5.0
println(x .+ a .* b .+ c .+ d .+ e)
out = zeros(2)
out .= x .+ y .+ z .+ w .+ v
println(out)
f(p, q, r, s, t, h) = p + q + r + s + t + h
println(f.(x, y, z, w, v, 1.0))
println(a .+ b .+ c .+ d .+ e .+ 1.0)
println(Ref(2.0) .+ 1.0, " ", typeof(Ref(2) .* Ref(3)))
A = reshape(collect(1.0:8.0), 2, 2, 2)
println(@. A * x + y - z * w + v + u + 1.0)
