# Integer types besides Int64: literals, wrapping arithmetic, promotion, conversion errors,
# printing, division, shifts, ranges, arrays, hashing.
x = 0x05
println(x)
@show x
println(typeof(x), " ", typeof(0x0001), " ", typeof(0x00000001), " ", typeof(0x000000001))
println(typeof(0b101), " ", typeof(0b000000001), " ", typeof(0o17), " ", typeof(0o777), " ", typeof(0x1_00))
println(x + 1, " ", typeof(x + 1))
@show x + 0x01
@show 0xff + 0x01
@show UInt8(200) * UInt8(2)
@show -0x01
@show Int8(-128) - Int8(1)
@show typemax(UInt64)
println(typemax(UInt64), " ", typemin(Int32), " ", typemax(Int16))
@show typemax(UInt64) + 1
@show UInt64(2)^63
@show Float64(typemax(UInt64))
@show Float64(0x8000000000000401)
@show div(typemax(UInt64), UInt64(3))
@show typemax(UInt64) % UInt64(10)
@show UInt8[1, 2, 3]
@show Int8[1, -2]
@show sum(UInt8[200, 100])
println(typeof(sum(Int8[100, 100])), " ", sum(Int8[100, 100]), " ", prod(UInt8[16, 16]))
@show 0x01 < -1
@show -1 < 0x01
@show -1 == typemax(UInt64)
@show UInt32(5) + Int32(3)
println(typeof(UInt32(5) + Int32(3)), " ", typeof(0x01 + Int8(1)), " ", typeof(Int8(5) + Int16(3)))
@show UInt64(5) + 3
@show 0x05 / 0x02
@show 0x05 + 1.5
@show Int32(5) + Float32(1)
@show 0x01 << 8
@show 0x80 >> 1
@show Int8(-128) >> 1
@show Int8(-128) >>> 1
@show 0x01 << 0x03
@show count_ones(0xff), leading_zeros(0x01), trailing_zeros(0x10)
println(string(0xff, base = 2), " ", string(Int16(-255), base = 16), " ", string(typemax(UInt64), base = 16))
@show bitstring(Int8(-1))
@show 300 % UInt8
@show unsigned(-1), signed(0xff)
@show sizeof(UInt16), sizeof(0x01), sizeof(Int32)
@show div(-7, 0x02)
println("$(0xff) and $(Int8(-3))")
@show Int(0xff)
@show Float32(UInt32(7))
@show UInt
println(repr([0x01, 2]), " ", repr([0x01, 0x0002]))
println(repr((max(0x01, 0x05), min(Int8(3), Int8(-2)))))
println(repr((abs(Int8(-5)), sign(Int8(-5)))))
@show UInt16(0xffff) + true
@show 3 * 0x02
@show 0x02 ^ 3
@show 2^0x03
println(repr((mod(Int8(-7), Int8(3)), fld(Int8(-7), Int8(3)), cld(Int8(-7), Int8(3)))))
@show divrem(0x07, 0x02)
println(repr((xor(0x0f, 0xff), 0x0f & 0x03, 0x0f | 0xf0, ~0x0f)))
println(repr((Int32(7) ÷ Int32(2), Int32(-7) % Int32(2))))
@show typemax(Int32) + Int32(1)
@show UInt8(255) + 1
@show float(0x05)
@show round(Int32, 2.6), trunc(UInt8, 2.6), Int32(2.0)
println(repr((isodd(0x03), iseven(Int16(4)))))
println(repr((string(0x0a), repr(0x0a))))

# Ranges and arrays.
for i in 0x01:0x03
    print(i, " ")
end
println()
@show collect(0x01:0x03)
@show zeros(UInt8, 3)
@show fill(0x00, 2)
v = [10, 20, 30]
@show v[0x02]
@show v[Int32(3)]
@show sort([0x03, 0x01, 0x02])
@show maximum(UInt8[3, 9, 2])

# Errors as Julia reports them.
for f in (() -> UInt8(300), () -> UInt8(-1), () -> UInt64(-1), () -> Int8(0xff),
          () -> UInt8(2.5), () -> Int32(typemax(UInt64)), () -> UInt16(Int8(-1)),
          () -> div(Int8(-128), Int8(-1)), () -> 0x01 ÷ 0x00, () -> Int8(1e10),
          () -> trunc(UInt8, -3.5))
    try
        f()
    catch e
        println(sprint(showerror, e))
    end
end

# Hashing: integers of every type hash as their value; a program's own `hash(x, h::UInt)`.
@show hash(0x05) == hash(5), isequal(0x05, 5)
d = Dict(0x01 => "a", 0x02 => "b")
@show d[0x01]
@show d
@show Set([0x01, 0x01, 0x02])
struct Point
    x::Float64
    y::Float64
end
Base.hash(p::Point, h::UInt) = hash(p.x, hash(p.y, h))
Base.:(==)(a::Point, b::Point) = a.x == b.x && a.y == b.y
pd = Dict(Point(1.0, 2.0) => 1, Point(3.0, 4.0) => 2)
println(pd[Point(1.0, 2.0)], " ", typeof(hash(1)), " ", length(Set([Point(1.0, 2.0), Point(1.0, 2.0)])))
