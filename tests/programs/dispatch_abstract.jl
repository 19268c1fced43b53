describe(x) = "something"
describe(x::Number) = "a number"
describe(x::Real) = "a real"
describe(x::AbstractFloat) = "a float"
describe(x::Integer) = "an integer"
describe(x::Int64) = "an Int64"
describe(x::String) = "a string"
println(describe(1))
println(describe(true))
println(describe(1.5))
println(describe(1.5f0))
println(describe("hi"))
println(describe(nothing))
println(describe([1]))
combine(x::Number, y::Number) = "numbers"
combine(x::Int64, y::Number) = "int first"
combine(x::Number, y::Int64) = "int second"
combine(x::Int64, y::Int64) = "both ints"
println(combine(1.0, 2.0), ", ", combine(1, 2.0), ", ", combine(1.0, 2), ", ", combine(1, 2))
