# hessian: f([0.4, 0.9, -1.2])
# Second derivatives through structs built with fields left undefined: a linked list whose
# last cell has no successor, and layers whose bias is left out.
mutable struct Cell
    w::Float64
    next::Cell
    Cell(w) = new(w)
end
struct Layer
    w::Float64
    bias::Vector{Float64}
    Layer(w) = new(w)
    Layer(w, b) = new(w, b)
end
apply(l::Layer, x) = isdefined(l, :bias) ? l.w .* x .+ l.bias : l.w .* x
function f(x)
    head = Cell(x[1] * 2.0)
    head.next = Cell(x[2] * x[3])
    layers = [Layer(x[1]), Layer(x[2], [x[3], 1.0, 2.0])]
    h = x
    for l in layers
        h = tanh.(apply(l, h))
    end
    sum(abs2, h) * head.w + head.next.w^2
end
