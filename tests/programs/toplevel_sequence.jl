println("first")
v = Float64[]
for i in 1:3
    push!(v, i^2)
end
println(v)
function grow!(v, x)
    push!(v, x)
    v
end
grow!(v, 10)
println(length(v))
let
    local_only = 7
    println(local_only * 6)
end
total = 0.0
for x in v
    global total += x
end
println(total)
