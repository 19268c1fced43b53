# Julia does not know a generator's element type, so an empty one has no sum.
println(sum(x^2 for x in Float64[] if x > 0))
