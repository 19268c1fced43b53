# Mooncake's documented interface example, unchanged: a struct's gradient as Mooncake's
# `Tangent`, read through `.fields`, and with `friendly_tangents = true` as a named tuple;
# `args_to_zero`. Then a model of nested structs with an array, an integer and a complex field.
import Mooncake as MC

struct SimplePair
    x1::Float64
    x2::Float64
end

# Define a simple function
g(x::SimplePair) = x.x1^2 + x.x2^2

# Where to evaluate the derivative
x_eval = SimplePair(1.0, 2.0)

cache = MC.prepare_gradient_cache(g, x_eval)
val, grad = MC.value_and_gradient!!(cache, g, x_eval)
println((val, grad))
println(grad[2].fields.x1)

cache = MC.prepare_gradient_cache(g, x_eval; config=MC.Config(friendly_tangents=true))
val, grad = MC.value_and_gradient!!(cache, g, x_eval)
println((val, grad))

cache = MC.prepare_gradient_cache(g, x_eval; config=MC.Config(friendly_tangents=true))
val, grad = MC.value_and_gradient!!(
    cache,
    g,
    x_eval;
    args_to_zero = (false, true),
)
println((val, grad))

struct Layer
    W::Matrix{Float64}
    b::Vector{Float64}
    n::Int
end
struct Model
    layer::Layer
    scale::Float64
    c::ComplexF64
end
loss(m::Model, x) = m.scale * sum(abs2, m.layer.W * x .+ m.layer.b) + abs2(m.c)
m = Model(Layer([1.0 2.0; 3.0 4.0], [0.5, -0.5], 3), 2.0, 1.0 + 2.0im)
x = [1.0, 1.0]
raw = MC.prepare_gradient_cache(loss, m, x)
y, (df, dm, dx) = MC.value_and_gradient!!(raw, loss, m, x)
println(y)
println(typeof(dm))
println(dm.fields.layer.fields.W, " ", dm.fields.scale, " ", dm.fields.c, " ", dx)
friendly = MC.prepare_gradient_cache(loss, m, x; config = MC.Config(friendly_tangents = true))
println(MC.value_and_gradient!!(friendly, loss, m, x))
