# check: f([0.5, -0.7, 1.1])
mutable struct Acc
    total::Float64
    n::Int
end
function f(x)
    a = Acc(0.0, 0)
    for xi in x
        a.total += xi^2
        a.n += 1
    end
    a.total / a.n
end
