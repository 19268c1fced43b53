# `map` over named tuples, `import M as A`, and an import list that goes on to the next line.
import LinearAlgebra as LA
import Statistics: mean,
    std

nt = (a = 1, b = 2.5, c = [1.0, 2.0])
println(map(x -> 2x, nt))
println(map(+, (a = 1, b = 2.5), (a = 3, b = 1)))
println(map(length, (x = "ab", y = "cde")))
println(LA.dot([1.0, 2.0], [3.0, 4.0]))
println(mean([1.0, 2.0, 3.0]), " ", std([1.0, 2.0, 3.0]))
println(fieldtypes(typeof(nt)))
println(fieldtype(typeof(nt), 2), " ", fieldtype(typeof(nt), :c))
try
    map(+, (a = 1, b = 2), (b = 1, a = 2))
catch e
    println(e)
end
