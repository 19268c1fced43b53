# A range indexed by a range is a range of the same kind; by a vector or mask, a vector.
r = 1:10
println(r[2:4], " ", r[1:2:7], " ", (2:3:20)[2:3], " ", Base.OneTo(5)[2:3])
println(r[[1, 3]], " ", (1:4)[[true, false, true, false]], " ", (0.0:0.5:2.0)[[1, 4]])
println((0.0:0.5:2.0)[2:3], " ", (0.0:0.1:1.0)[3:2:9], " ", (0.1:0.1:1.0)[2:4])
println(typeof((0.0:0.5:2.0)[2:3]))
println(range(0, 1, length = 5)[2:4], " ", (2 .* (1:5))[2:3])
println(LinRange(0.0, 1.0, 11)[3:5], " ", LinRange(0.0, 1.0, 11)[3:2])
println(collect((0.0:0.1:1.0)[3:2:9]), " ", sum((1:100)[10:20]))
r[0:2]
