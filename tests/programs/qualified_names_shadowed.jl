# `Base.name` is Base's function even where a local or a global variable of the same name
# shadows it, as in Julia.
using LinearAlgebra
sum = 10
function total(x)
    sum = 0.0
    for v in x
        sum += v
    end
    sum + Base.sum(x)
end
function largest(x)
    max = x[1]
    for v in x
        max = Base.max(max, v)
    end
    max
end
function with_e(x)
    e = 2.0
    Base.MathConstants.e * e + LinearAlgebra.dot(x, x)
end
println(total([1.0, 2.0, 3.0]), " ", sum + Base.sum([1, 2]))
println(largest([3.0, 7.0, 5.0]))
println(with_e([1.0, 2.0]))
s = Base.sum
println(s([1.5, 2.5]))
