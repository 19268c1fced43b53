# check: model([1.0, 2.0, -0.5])
# check: model_closure([1.0, 2.0, -0.5])
# check: model_splat_tuple([1.0, 2.0, -0.5])
# check: model_local([1.0, 2.0, -0.5])
# check: model_broadcast([1.0, 2.0, -0.5])
# Keyword arguments that carry active values through `kws...` and `; kws...`.
g(x; scale = 1.0, shift = 0.0) = scale * x + shift
loss(w; kws...) = g(w[1]; kws...) * g(w[2]; kws...) + g(w[3]; kws..., shift = 1.0)
model(w) = loss(w; scale = w[3], shift = w[1])
loss_closure(w; kws...) = sum(x -> g(x; kws...)^2, w)
model_closure(w) = loss_closure(w; scale = 0.5, shift = w[2])
model_splat_tuple(w) = g(w[1]; (shift = w[2], scale = w[3])...)
function model_local(w)
    inner(y; kws...) = g(y; kws...)
    inner(w[1]; scale = w[2]) * inner(w[3])
end
loss_broadcast(w; kws...) = sum(abs2, g.(w; kws...))
model_broadcast(w) = loss_broadcast(w; scale = 0.5, shift = w[1])
