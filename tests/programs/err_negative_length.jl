x = Vector{Float64}(undef, -1)
