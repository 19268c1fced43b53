# A closure's type prints quoted, as Julia prints a name that is not an identifier
# (`var"#…"`); a closure itself prints by its name alone, as every function does.
f = x -> x + 1
function mk(a)
    g(y) = y * a
    return g
end
h = mk(2.0)
println(startswith(string(typeof(f)), "var\"#"))
println(startswith(string(typeof(h)), "var\"#"))
println(endswith(string(typeof(h)), "\"{Float64}"))
println(startswith(string(h), "#"))
println(occursin("{", string(h)))
println(occursin("2.0", repr(h)))
println(h(1.5), " ", f(2))
