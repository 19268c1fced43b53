r = 1:5
println(r)
println(length(r), " ", first(r), " ", last(r), " ", sum(r))
println(collect(r))
println(collect(1:2:10))
println(collect(10:-3:1))
println(length(5:1), " ", isempty(5:1), " ", collect(5:4))
println(r[2], " ", (1:2:9)[3])
n = 4
println(collect(1:n-1))
s = 0
for i in 3:-1:1
    global s = 10s + i
end
println(s)
println(typeof(1:3))
