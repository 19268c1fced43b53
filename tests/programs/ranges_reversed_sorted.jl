# `reverse` and `sort` of ranges give ranges, as in Julia; tuples compare lexicographically.
println(reverse(1:3), " ", reverse(1:0), " ", reverse(10:-3:1), " ", reverse(0.0:0.5:1.0), " ", reverse(range(0, 1; length = 3)), " ", reverse(LinRange(0, 1, 3)))
println(sort(1:3), " ", sort(3:-1:1), " ", sort(5:-2:1), " ", sort(1:3; rev = true), " ", collect(reverse(0.1:0.1:0.5)), " ", sum(reverse(1:4)))
println(reverse(Base.OneTo(3)), " ", sort(0.0:-0.5:-1.0))
println((1, 2) < (1, 3), " ", (1, 2) <= (1, 2), " ", (2,) < (1, 5), " ", (1,) < (1, 0), " ", max((1, 2), (0, 5)), " ", sort([(2, "b"), (1, "z"), (2, "a")]))
reverse(1.0:1.0:0.0)
