# call: xorshift(0x0123456789abcdef, 10)
# stages: optimised
# A UInt64 state updated in a loop stays an Int64 register value: shifts, xors and the sum
# work on its bits; the UInt64 is built once, for the result.
function xorshift(s::UInt64, n)
    acc = 0x0000000000000000
    for i in 1:n
        s = xor(s, s << 13)
        s = xor(s, s >> 7)
        s = xor(s, s << 17)
        acc += s % UInt8
    end
    acc
end
