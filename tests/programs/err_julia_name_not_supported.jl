# A name Julia defines that is not supported yet says so (it is not an undefined variable).
println(length([1, 2]))
big = BigInt(2)^100
