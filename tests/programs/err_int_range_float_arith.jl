# An integer range plus a `Float32` is a `Float32` range in Julia: not supported yet.
r = 1:5
println(r .+ 0.5)
println(r .+ 0.5f0)
