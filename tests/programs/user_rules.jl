# Rules written in the language: Mooncake's vocabulary, and rules that take effect wherever
# their function is called under differentiation.
using Mooncake
import Mooncake: rrule!!, frule!!, CoDual, Dual, NoFData, NoRData, NoTangent, zero_fcodual,
    zero_tangent, primal, tangent, fdata, rdata, zero_rdata

println(zero_fcodual(2.5))
println(zero_fcodual([1.0, 2.0]))
println(primal(CoDual(1.0, NoFData())), " ", tangent(CoDual(1.0, NoFData())))
println(Dual(3.0, 1.0))
println(NoTangent(), " ", NoFData(), " ", NoRData())
println(zero_tangent((1.0, 2, [3.0])))
println(fdata(2.0), " ", rdata(2.0), " ", fdata([1.0]), " ", rdata([1.0]))
println(fdata((1.0, [2.0])), " ", rdata((1.0, [2.0])))
println(zero_rdata(1.5), " ", zero_rdata([1.0]), " ", zero_rdata(3))
println(Mooncake.tangent_type(Float64), " ", Mooncake.tangent_type(Int), " ",
    Mooncake.tangent_type(Vector{Float64}), " ", Mooncake.tangent_type(Tuple{Float64, Int}))
println(Mooncake.fdata_type(Vector{Float64}), " ", Mooncake.rdata_type(Float64))
println(Mooncake.increment!!(1.0, 2.0), " ", Mooncake.increment!!([1.0, 2.0], [3.0, 4.0]))

# A rule counts its runs: it is the one that runs, not the function's code.
const runs = [0, 0]
double(x) = 2x
Mooncake.@is_primitive Mooncake.MinimalCtx Tuple{typeof(double), Float64}
function rrule!!(::CoDual{typeof(double)}, x::CoDual{Float64})
    runs[1] += 1
    return zero_fcodual(2 * primal(x)), dy -> (NoRData(), 2dy)
end
function frule!!(::Dual{typeof(double)}, x::Dual{Float64})
    runs[2] += 1
    return Dual(2 * primal(x), 2 * tangent(x))
end
y, pb = rrule!!(zero_fcodual(double), zero_fcodual(5.0))
println(y, " ", pb(1.0))
f(x) = double(x) * x
println(gradient(f, 3.0), " ", derivative(f, 3.0), " ", runs)
g(v) = sum(double.(v))
println(gradient(g, [1.0, 2.0, 3.0]), " ", runs)

# A zero adjoint: the function runs once per forwards pass, and gives no derivative.
const logged = Float64[]
function log_value!(x)
    push!(logged, x)
    return nothing
end
Mooncake.@zero_adjoint Mooncake.DefaultCtx Tuple{typeof(log_value!), Float64}
h(x) = (log_value!(x); x^2)
println(gradient(h, 1.5), " ", logged)

# A rule declared after a first gradient takes effect at the next one.
tw(x) = x^2
k(x) = tw(x) + x
println(gradient(k, 2.0))
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{typeof(tw), Float64}
rrule!!(::CoDual{typeof(tw)}, x::CoDual{Float64}) =
    zero_fcodual(primal(x)^2), dy -> (NoRData(), 100.0 * dy)
println(gradient(k, 2.0))

# Vararg signatures match any number of trailing arguments.
mx(xs...) = maximum(xs)
Mooncake.@zero_derivative Mooncake.DefaultCtx Tuple{typeof(mx), Vararg}
println(gradient(x -> mx(x, 2x) * x, 1.5), " ", derivative(x -> mx(x, 2x) * x, 1.5))
println(Mooncake.stop_gradient(2.0))
