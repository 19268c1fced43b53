# Cube roots, degrees and radians, flipsign, evalpoly; bits, digits and powers of integers.
println(cbrt(27.0), " ", cbrt(-8), " ", cbrt(2.0), " ", cbrt(1f0), " ", deg2rad(180), " ", rad2deg(π / 2), " ", deg2rad(90f0))
println(flipsign(3, -1.0), " ", flipsign(-2.5, 1), " ", flipsign(2.0, -0.0), " ", evalpoly(2.0, (1.0, 2.0, 3.0)), " ", evalpoly(3, [1, 1]))
# Bits, digits and powers of integers.
println(count_ones(7), " ", count_ones(-1), " ", leading_zeros(1), " ", leading_zeros(0), " ", leading_zeros(-5), " ", trailing_zeros(8), " ", trailing_zeros(0), " ", trailing_ones(7), " ", leading_ones(-1))
println(ispow2(64), " ", ispow2(0), " ", ispow2(12), " ", ispow2(-4))
println(ndigits(0), " ", ndigits(12345), " ", ndigits(-999), " ", ndigits(255, base = 16), " ", ndigits(5, pad = 3))
println(digits(1234), " ", digits(-123), " ", digits(6, base = 2), " ", digits(5, pad = 3), " ", digits(0))
println(nextpow(2, 5), " ", nextpow(2, 8), " ", nextpow(10, 999), " ", nextpow(2, 5.5), " ", nextpow(1.5, 10), " ", nextpow(3, 1))
println(prevpow(2, 5), " ", prevpow(2, 8), " ", prevpow(10, 999), " ", prevpow(2, 5.5), " ", prevpow(1.5, 10), " ", prevpow(3, 1))
println(~5, " ", ~0, " ", ~true, " ", ~(-1), " ", 3 & ~1, " ", map(~, [1, 2]))
x = 6
println(-~x, " ", ~x^2)
println(string(255, base = 16), " ", string(5, base = 2, pad = 8), " ", string(-255, base = 16), " ", string(61, base = 62), " ", string(35, base = 62), " ", string(42), " ", string(7, pad = 3), " ", string(0, base = 2), " ", string(typemin(Int), base = 16))
