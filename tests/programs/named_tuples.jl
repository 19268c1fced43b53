nt = (a = 1, b = 2.5, name = "x")
println(nt)
println(nt.a, " ", nt.b, " ", nt.name)
println(typeof((a = 1, b = 2.0)))
params = (lr = 0.1, steps = 3)
function run(p)
    w = 1.0
    for i in 1:p.steps
        w -= p.lr * w
    end
    w
end
println(run(params))
println((x = 1,))
