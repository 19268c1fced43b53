println(Int(4.0))
println(Int(4.5))
