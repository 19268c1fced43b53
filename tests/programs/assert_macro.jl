x = 5
@assert x > 0
@assert x == 5 "x should be five"
println("assertions passed")
function checked_sqrt(v)
    @assert v >= 0 "negative input"
    sqrt(v)
end
println(checked_sqrt(9.0))
