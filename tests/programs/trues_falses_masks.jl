# Arrays of all true or false used as masks, and the BitVector name in signatures.
t = trues(3)
println(t, " ", falses(2, 2), " ", size(trues((2, 3))), " ", count(trues(4)))
m = falses(5)
m[2] = true
m[4] = true
x = [1.0, 2.0, 3.0, 4.0, 5.0]
println(x[m], " ", sum(m), " ", any(m), " ", all(trues(0)))
v = BitVector(undef, 2)
println(length(v), " ", m isa BitVector, " ", (x .> 2) isa BitVector, " ", eltype(falses(2, 2)))
f(b::BitVector) = count(b)
println(f(x .> 2.5))
