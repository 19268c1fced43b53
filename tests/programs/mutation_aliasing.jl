function fill_squares!(out, v)
    for i in eachindex(v)
        out[i] = v[i]^2
    end
    out
end
a = [1.0, 2.0, 3.0]
fill_squares!(a, a)
println(a)
b = a
push!(b, 0.5)
println(length(a), " ", a === b, " ", a == copy(a), " ", a === copy(a))
mutable struct Holder
    data::Vector{Float64}
end
h = Holder([1.0])
h.data[1] = 5.0
push!(h.data, 6.0)
println(h.data)
