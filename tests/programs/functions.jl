# Long and short forms, several methods, return annotations, early return
function area(w, h)
    return w * h
end
area(s) = area(s, s)
println(area(2, 3), " ", area(4))
function classify(x)
    if x < 0
        return "negative"
    elseif x == 0
        return "zero"
    end
    "positive"
end
println(classify(-2), " ", classify(0), " ", classify(3))
half(x)::Float64 = x / 2
println(half(3))
function toint(x)::Int
    x * 2.0
end
println(toint(3), " ", typeof(toint(3)))
sq(x) = x * x
compose(x) = sq(sq(x) + 1)
println(compose(2))
function noreturn()
end
println(noreturn())
function f end
f(x::Int) = "int"
println(f(1))
