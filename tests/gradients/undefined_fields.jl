# check: linked_list_sum([1.5, -0.5, 2.0])
# check: lazy_cache([0.7, 1.3])
# check: layers_without_bias([0.4, 0.9, -1.2])
# Structs built with fields left undefined by `new`: a linked list whose last cell has no
# successor, a cache filled on first use, and layers whose bias is left out.
mutable struct Cell
    w::Float64
    next::Cell
    Cell(w) = new(w)
end
function linked_list_sum(x)
    head = Cell(x[1] * 2.0)
    c = head
    for i in 2:length(x)
        n = Cell(x[i])
        c.next = n
        c = n
    end
    s = 0.0
    c = head
    while isdefined(c, :next)
        s += c.w * c.next.w
        c = c.next
    end
    s + c.w^2
end
mutable struct Lazy
    θ::Float64
    cache::Vector{Float64}
    Lazy(θ) = new(θ)
end
function cached(l::Lazy)
    if !isdefined(l, :cache)
        l.cache = [sin(l.θ), cos(l.θ)]
    end
    l.cache
end
function lazy_cache(x)
    l = Lazy(x[1] * x[2])
    sum(cached(l)) + cached(l)[1] * x[2]
end
struct Layer
    w::Float64
    bias::Vector{Float64}
    Layer(w) = new(w)
    Layer(w, b) = new(w, b)
end
apply(l::Layer, x) = isdefined(l, :bias) ? l.w .* x .+ l.bias : l.w .* x
function layers_without_bias(x)
    layers = [Layer(x[1]), Layer(x[2] * x[3], [x[3], 1.0, 2.0])]
    h = x
    for l in layers
        h = tanh.(apply(l, h))
    end
    sum(abs2, h) * x[1]
end
