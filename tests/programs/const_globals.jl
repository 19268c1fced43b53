const N = 10
const SCALE = 2.5
const NAMES = ["a", "b"]
f(x) = x * SCALE + N
println(f(2))
println(NAMES[2])
function loop()
    s = 0
    for i in 1:N
        s += i
    end
    s
end
println(loop())
g = 3
h(x) = x + g
println(h(1))
g = 4.5
println(h(1))
