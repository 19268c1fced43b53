v = [1, 2, 3]
println(v, " ", typeof(v), " ", length(v))
w = [1.0, 2, 3]
println(w, " ", typeof(w))
println(v[1], " ", v[end], " ", v[end - 1])
v[2] = 20
println(v)
push!(v, 4)
println(v)
println(pop!(v), " ", v)
append!(v, [7, 8])
println(v)
u = copy(v)
u[1] = 100
println(v[1], " ", u[1])
e = Float64[]
push!(e, 1)
push!(e, 2.5)
println(e)
println(isempty(Int[]), " ", isempty(v))
s = similar([1.0, 2.0])
println(length(s), " ", typeof(s))
m = Any[1, "two", 3.0]
println(m)
println(m[2])
println(Float32[1, 2])
println([true, false])
println(["a", "b"])
println([])
println(first([4, 5]), " ", last([4, 5]))
z = v
z[1] = -1
println(v[1])
println(4 in [1, 4], " ", 5 in [1, 4])
resize!(v, 2)
println(v)
