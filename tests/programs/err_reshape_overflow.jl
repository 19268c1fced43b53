r = reshape(zeros(0), 2^32, 2^32)
println(r[1, 2])
