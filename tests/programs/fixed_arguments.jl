# Functions with an argument fixed (`==(x)`, `>(x)`, `in(xs)`, ...) and `isequal`.
xs = [3.0, 1.5, 2.0, 1.5]
println(findfirst(==(1.5), xs))
println(findall(==(1.5), xs))
println(count(>(1.6), xs))
println(filter(<(2.0), xs))
println(any(isequal(2.0), xs))
println(findfirst(in([2.0, 9.0]), xs))
println(map(!=(1.5), xs))
println(isequal(NaN, NaN), " ", isequal(-0.0, 0.0), " ", isequal(1, 1.0), " ", isequal(-0.0, 0))
println(isequal([1.0, NaN], [1.0, NaN]), " ", [1.0, NaN] == [1.0, NaN])
println(==(2))
