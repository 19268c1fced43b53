# Literals of every kind
println(42)
println(-7)
println(1_000_000)
println(3.5)
println(.5)
println(1e-3)
println(2.5e10)
println(1f0)
println(2.5f0)
println(typeof(2.5f0))
println(true, " ", false)
println(nothing)
println("plain string")
println("escapes: tab\there, quote \" and backslash \\")
#= a block
   comment =#
x = 10 # trailing comment
println("x is $x, twice is $(2x), and a dollar: \$")
println(typeof(nothing), " ", typeof("s"), " ", typeof(true))
