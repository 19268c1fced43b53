# `push!`, `append!` and `pushfirst!` with several values, in order; `prepend!`.
v = [1.0]
push!(v, 2.0, 3)
println(v)
append!(v, [4.0, 5.0], (6, 7))
println(v)
pushfirst!(v, -1.0, 0.0)
println(v)
prepend!(v, [-3, -2])
println(v)
w = Int[]
push!(w, 1, 2, 3, 4)
println(w, " ", length(w))
s = String[]
push!(s, "a", "b")
println(s)
push!(w, 1.5, 2)
