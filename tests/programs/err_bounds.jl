v = [1.0, 2.0, 3.0]
function get(v, i)
    v[i]
end
println(get(v, 2))
println(get(v, 4))
