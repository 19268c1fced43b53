# check: masked_terms([0.5, -1.0, 2.0, 0.25], 0x05, Int32(3))
# check: hashed_buckets([0.3, 1.5, -0.7, 2.2, 0.9])
# check: quantised_weights([0.8, -0.4, 1.3])
# check: complex_orbit([0.25, 0.5])
# Integer types beside floats: a bit mask choosing terms, an Int32 count, a xorshift hash
# picking buckets, bytes scaling weights, and a loop-carried complex number (held in
# registers as its parts).
function masked_terms(x, mask::UInt8, k::Int32)
    s = 0.0
    for i in 1:length(x)
        if (mask >> (i - 1)) & 0x01 == 0x01
            s += x[i]^2 * Float64(k)
        else
            s += sin(x[i]) / (1 + Int(k))
        end
    end
    s
end
function hashed_buckets(x)
    buckets = zeros(4)
    state = 0x9e3779b97f4a7c15
    for v in x
        state = xor(state, state << 13)
        state = xor(state, state >> 7)
        state = xor(state, state << 17)
        b = Int(state % UInt64(4)) + 1
        buckets[b] += v * v
    end
    sum(buckets .* [1.0, 2.0, 3.0, 4.0])
end
function quantised_weights(w)
    bytes = UInt8[0x10, 0x80, 0xff]
    s = 0.0
    for i in eachindex(w)
        s += w[i] * (Float64(bytes[i]) / 255) + w[i]^2 * count_ones(bytes[i])
    end
    s
end
function complex_orbit(p)
    c = complex(p[1], p[2])
    z = zero(c)
    for k in 1:6
        z = z * z + c
    end
    abs2(z)
end
