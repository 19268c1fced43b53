# Julia computes a unit range plus a float as a float range of its own kind: not supported yet.
r = 1:5
println(r .+ 1)
println(r .+ 0.5)
