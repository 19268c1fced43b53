# Shifts and exclusive or on Int64, with Julia's precedence: shifts bind tighter than `*`,
# looser than unary minus; `⊻` sits with `+`.
println(8 >>> 1, " ", 8 >> 1, " ", 1 << 3)
println(-8 >> 1, " ", -8 >>> 60, " ", -1 >>> 1)
println(1 << 63, " ", 1 << 64, " ", -1 >> 70, " ", 5 >>> 64)
println(5 << -1, " ", 5 >> -1, " ", 5 >>> -2)
println(-2 << 1, " ", 2 * 3 << 1, " ", 1 + 1 << 2, " ", 2^2 << 1)
println(5 ⊻ 3, " ", xor(5, 3), " ", 1 + 2 ⊻ 3, " ", 6 & 3 ⊻ 1)
x = 6
x <<= 2
x ⊻= 1
x |= 64
x &= 127
x >>= 1
println(x)
rotl(v, k) = (v << k) | (v >>> (64 - k))
println(rotl(1, 63), " ", rotl(-2, 1))
println(isqrt(0), " ", isqrt(1), " ", isqrt(17), " ", isqrt(16), " ", isqrt(9223372036854775807))
