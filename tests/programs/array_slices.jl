v = [10, 20, 30, 40, 50]
s = v[2:4]
println(s)
s[1] = 0
println(v)
println(v[1:2:5], " ", v[:], " ", v[3:end])
println(v[4:3])
M = [1 2 3; 4 5 6; 7 8 9]
println(M[:, 2])
println(M[3, :])
println(M[1:2, 2:3])
v[2:3] = [-1, -2]
println(v)
