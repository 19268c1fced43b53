# check: loss([0.5, -1.2, 2.0])
# check: scaled_sum([1.5, 0.25])
# A model's own functions named like library ones are the ones differentiated.
norm(x) = sqrt(Base.sum(abs2, x) + 1)
sum(x::Vector{Float64}) = Base.sum(x) * 3
prod(x) = x[1] * x[end]
loss(x) = norm(x) * 2 + prod(x) + sum(x .^ 2)
scaled_sum(x) = sum([2x[1], x[2]^3]) + maximum(x)
