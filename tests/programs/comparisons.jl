println(1 < 2, " ", 2 < 1, " ", 1 <= 1, " ", 2 >= 3, " ", 1 == 1.0, " ", 1 != 2)
println(1 < 2 < 3, " ", 1 < 3 < 2, " ", 1 <= 1 < 2 <= 2)
println(1 === 1, " ", 1 === 1.0, " ", 1 !== 2)
println(true && false, " ", true || false, " ", !true)
a = 5
println(a > 3 ? "big" : "small")
println(a > 10 ? "big" : a > 4 ? "medium" : "small")
f(x) = x > 0 && x < 10
println(f(5), " ", f(-1), " ", f(11))
g(x) = x < 0 || x > 10
println(g(5), " ", g(-1), " ", g(11))
println(NaN == NaN, " ", NaN != NaN, " ", 0.0 == -0.0, " ", 0.0 === -0.0)
println(1 ≤ 2, " ", 3 ≥ 4, " ", 1 ≠ 2)
