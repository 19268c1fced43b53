t = (1, 2.5, "three")
println(t)
println(t[1], " ", t[3], " ", length(t))
a, b, c = t
println(a, b, c)
x, y = 1, 2
x, y = y, x
println(x, " ", y)
function divrem2(a, b)
    return a ÷ b, a % b
end
q, r = divrem2(17, 5)
println(q, " ", r)
println(typeof((1, 2.0)))
println((1,), " ", ())
println((1, 2) == (1, 2), " ", (1, 2) == (2, 1))
function fibpair(n)
    a, b = 0, 1
    for i in 1:n
        a, b = b, a + b
    end
    a, b
end
println(fibpair(20))
