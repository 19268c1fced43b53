# Functions returning tuples in each way native code returns them: built right before the
# return, chosen between two tuples, a constant, carried through a loop; with boxed,
# register and singleton fields.
function pick(x, b)
    t = (x, [x, 2x], "s", nothing)
    u = (2x, [3x], "t", nothing)
    r = b ? t : u
    r
end
consts() = (1, 2.5, nothing)
direct(x) = (x + 1.0, x * 2.0)
function carried(x)
    t = (0.0, 0)
    for i in 1:3
        t = (t[1] + x, t[2] + i)
    end
    t
end
println(pick(1.5, true))
println(pick(1.5, false))
println(consts())
println(direct(2.0))
println(carried(1.5))
a, v, s, n = pick(0.5, true)
println(a, " ", v, " ", s, " ", n)
