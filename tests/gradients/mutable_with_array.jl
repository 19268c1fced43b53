# check: f(0.7)
mutable struct Buf
    data::Vector{Float64}
    scale::Float64
end
function f(x)
    b = Buf(zeros(3), x)
    for i in 1:3
        b.data[i] = b.scale * i
        b.scale *= 1.5
    end
    sum(b.data) + b.scale
end
