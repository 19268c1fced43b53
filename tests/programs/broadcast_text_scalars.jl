# Strings, characters, symbols and types are scalars to broadcasting, as in Julia.
println(string.("a", [1, 2]))
println(uppercase.(["ab", "c"]))
println(parse.(Float64, ["1.5", "2"]))
println(isletter.(['a', '1']))
println(Int.(round.([1.4, 2.6])))
println(string.(:k, 1:3), " ", uppercase.("xy"))
