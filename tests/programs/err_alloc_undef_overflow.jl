A = Matrix{Float64}(undef, 2^32, 2^32)
println(A[1, 2])
