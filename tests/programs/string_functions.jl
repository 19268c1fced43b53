# Searching, case, replacing, padding, joining and parsing strings, with Julia's results.
names = ["alpha", "beta", "gamma"]
println(join(names, ", "), " | ", join(names, ", ", " and "), " | ", join(1:3))
println(uppercase("straße é"), " ", lowercase("ABC Dé"))
println(replace("a-b-c", "-" => "+"), " ", replace("aaa", "aa" => "b"))
println(startswith("model.jl", "model"), " ", endswith("model.jl", ".jl"), " ", endswith("jl", "model.jl"))
println(occursin("ph", "alpha"), " ", contains("alpha", "x"), " ", isempty(""), " ", isempty("a"))
for (k, v) in zip(names, [1.5, 22.25, 3.0])
    println(rpad(k, 8, "."), lpad(v, 7), " ", lpad(length(k), 3, "0"))
end
println(parse(Int, "42") + 1, " ", parse(Int, " -0x1f "), " ", parse(Int, "+7"))
println(parse(Float64, "2.5e3"), " ", parse(Float64, "-.5"), " ", parse(Float64, " Inf "), " ", parse(Float64, "1") / 3)
println(ncodeunits("hé"), " ", sizeof("abc"))
println(findfirst("b", "abcb"), " ", findnext("b", "abcb", 3), " ", findfirst("x", "abc"), " ", findfirst("cd", "abcd"), " ", findfirst("b", "éb"))
