x = 1
x += 2
println(x)
x -= 1
println(x)
x *= 10
println(x)
x /= 4
println(x)
x ^= 2
println(x)
y = 10
y ÷= 3
println(y)
v = [1.0, 2.0, 3.0]
v[2] += 10
v[end] *= 2
println(v)
mutable struct Acc
    total::Float64
end
a = Acc(0)
for i in 1:4
    a.total += i / 2
end
println(a.total)
