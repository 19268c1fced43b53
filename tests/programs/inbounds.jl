function mysum(v)
    s = 0.0
    @inbounds for i in eachindex(v)
        s += v[i]
    end
    s
end
println(mysum([1.0, 2.0, 3.5]))
function scale!(v, a)
    @inbounds for i in 1:length(v)
        v[i] *= a
    end
    v
end
println(scale!([1.0, 2.0], 3))
