# Julia computes an integer range times a float as a float range in twice precision (its third
# element of `(1:5) .* 0.1` is 0.3, not 3 * 0.1): not supported yet.
r = 1:5
println(r .+ 1)
println(r .* 0.1)
