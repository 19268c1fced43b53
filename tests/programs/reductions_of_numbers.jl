# A number is a collection of one element.
println(sum(3), " ", sum(2.5), " ", sum(abs2, -2), " ", sum(iseven, 4))
println(prod(2.0), " ", maximum(7), " ", minimum(-1.5), " ", maximum(abs, -3))
