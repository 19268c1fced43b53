# Modulus and flooring division of floats and mixed types, `mod1`/`fld1`, `divrem`, `something`,
# `count`, quantiles (definition 7, and `alpha`/`beta`), `partialsort` and `unique`, as Julia prints them.
using Statistics
println(mod(-7.5, 2.0), " ", mod(7.5, -2.0), " ", mod(-0.0, 3.0), " ", mod(6.0, 3.0), " ", mod(-6.0, 3.0), " ", mod(-1, 2.5))
println(fld(-7.5, 2.0), " ", cld(-7.5, 2.0), " ", fld(7, 2.0), " ", rem(-7.5, 2))
println(mod1(7, 3), " ", mod1(6, 3), " ", mod1(-1, 3), " ", mod1(6.0, 3.0), " ", mod1(2.5, 1))
println(fld1(7, 3), " ", fld1(6, 3), " ", fldmod1(7, 3), " ", fldmod(-7, 2), " ", divrem(-7, 2), " ", divrem(7.5, 2.0))
println(something(nothing, 3, 4), " ", something(1.5), " ", count([true, false, true]), " ", count(x -> x > 1, [1, 2, 3]))
println(quantile([3.0, 1.0, 2.0, 5.0], 0.3), " ", quantile([3.0, 1.0, 2.0, 5.0], [0.0, 0.5, 1.0]), " ", quantile([2.0], 0.7))
println(quantile(1:10, 0.25), " ", quantile([1.0, 2.0, 4.0], 0.5; alpha = 0.0, beta = 0.0), " ", quantile(abs, [-3.0, 1.0, 2.0], 0.5))
println(partialsort([3.0, 1.0, 2.0, 5.0], 2), " ", partialsort([3.0, 1.0, 2.0, 5.0], 1:2), " ", partialsort([3, 1, 2], 1; rev = true))
println(unique([3, 1, 3, 2, 1]), " ", unique([1.0, -0.0, 0.0, NaN, NaN, 1.0]), " ", unique(["b", "a", "b"]), " ", unique([(1, 2), (1, 2), (2, 1)]))
println(oftype(1.0, 2), " ", typeof(oftype(1, 2.0)))
