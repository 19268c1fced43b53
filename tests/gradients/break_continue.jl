# check: f(0.21)
function f(x)
    s = 0.0
    for i in 1:100
        i % 3 == 0 && continue
        s += sin(i * x)
        i > 20 && break
    end
    s
end
