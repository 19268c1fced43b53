function half(x)
    h = x / 2
    h::Int
end
println(half(4.0) isa Any)
