# check: many([0.4, -1.2, 0.8])
# A fused broadcast over seven operands (arrays and scalars), also into a destination.
function many(v)
    a = v .* 2.0
    b = v .^ 2
    c = [1.0, -1.0, 0.5]
    s = v[1]
    t = v[2] * v[3]
    r = @. v * a + b * c - s * v + t / (1.0 + b) + sin(a)
    out = zeros(3)
    out .= v .+ a .* b .- c .* s .+ t .+ exp.(v)
    sum(r) + sum(abs2, out)
end
