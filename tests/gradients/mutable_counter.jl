# check: f(0.5)
mutable struct Counter
    value::Float64
end
function bump!(c, x)
    c.value += x^2
    c
end
function f(x)
    c = Counter(1.0)
    for i in 1:4
        bump!(c, x * i)
    end
    c.value
end
