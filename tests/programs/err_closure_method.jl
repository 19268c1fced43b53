# A closure called with arguments none of its methods takes.
function scaler(a)
    g(y) = y * a
    return g
end
h = scaler(2.0)
println(h(3.0))
h(1.0, 2.0)
