# Every form of `const` at top level: one name, several names from a tuple or any iterable,
# typed (the value converted), chained, and with `global` on either side.
const a, b = 1, 2
println(a + b)
const (c, d) = (3.0, [4.0, 5.0])
println(c, " ", d)
const e1, e2 = [10.0, 20.0]
println(e1 + e2)
const t::Float64 = 1
println(t, " ", typeof(t))
const p = q = 7
println(p + q)
global const g = 8
const global h = 9
println(g + h)
# Functions compiled after the constants read them as constants.
scale(x) = a * x + c + e2
println(scale(2.0))
const first_two, rest... = (1, 2, 3)
