# An accumulator that starts as the Int 0 and becomes a Float64: its type is
# Union{Int64, Float64}; `+` on it is split into one static call per member.
# check: sumsq([1.0, 2.0, 3.0])
# check: sumsq([0.5])
function sumsq(x)
    z = 0
    for v in x
        z += v * v
    end
    z
end
