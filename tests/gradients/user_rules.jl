# check: through_root([1.5, 2.0])
# check: stable_lse([1.0, 2.0, 3.0])
# check: counted(0.7)
# check: powered(Pow(3), 0.4)
# check: squares_by_broadcast([0.3, -1.2, 2.0])
# check: threaded_squares([0.3, -1.2, 2.0, 0.5, 0.9])
# check: mapped([0.5, 1.5])
# check: kernel_loss([1.0 2.0; 3.0 4.0], [0.5, -0.5])
# check: vararg_sum(0.5, 1.5)
# Rules written in the language, in the shapes Mooncake's users write them: an implicit
# derivative of a Newton solve, a stable logsumexp, a function with a zero adjoint, a rule of a
# callable struct, a scalar rule broadcast, mapped and used in a threaded loop, a rule that
# increments matrices, and a rule matching a Vararg signature.
using Mooncake
using LinearAlgebra
import Mooncake: rrule!!, frule!!, CoDual, Dual, NoRData, NoFData, zero_fcodual, primal, tangent
using Mooncake: ReverseMode

# The root y of y^3 + p[1] y - p[2] by Newton's method; its derivative by the implicit
# function theorem (the pullback solves the one-dimensional adjoint system).
function root(p::Vector{Float64})
    y = 1.0
    for _ in 1:100
        y -= (y^3 + p[1] * y - p[2]) / (3y^2 + p[1])
    end
    y
end
Mooncake.@is_primitive Mooncake.MinimalCtx Tuple{typeof(root), Vector{Float64}}
function rrule!!(::CoDual{typeof(root)}, p::CoDual{Vector{Float64}})
    pv, dp = primal(p), tangent(p)
    y = root(pv)
    function root_pullback(dy)
        λ = dy / (3y^2 + pv[1])
        dp[1] -= λ * y
        dp[2] += λ
        return NoRData(), NoRData()
    end
    return zero_fcodual(y), root_pullback
end
function frule!!(::Dual{typeof(root)}, p::Dual{Vector{Float64}})
    pv, dp = primal(p), tangent(p)
    y = root(pv)
    return Dual(y, (dp[2] - dp[1] * y) / (3y^2 + pv[1]))
end
through_root(p) = root(p)^2 + p[1] * root(p)

# A numerically stable logsumexp with its softmax pullback.
lse(x::Vector{Float64}) = (m = maximum(x); m + log(sum(exp.(x .- m))))
Mooncake.@is_primitive Mooncake.DefaultCtx Mooncake.ReverseMode Tuple{typeof(lse), Vector{Float64}}
function rrule!!(::CoDual{typeof(lse)}, x::CoDual{Vector{Float64}})
    xv, dx = primal(x), tangent(x)
    y = lse(xv)
    function lse_pullback(dy)
        dx .+= dy .* exp.(xv .- y)
        return NoRData(), NoRData()
    end
    return zero_fcodual(y), lse_pullback
end
stable_lse(x) = lse(3.0 .* x) * x[2]

# Logging: a zero adjoint.
const seen = [0]
function note!(x)
    seen[1] += 1
    return 2.0
end
Mooncake.@zero_adjoint Mooncake.DefaultCtx Tuple{typeof(note!), Any}
counted(x) = note!(x) * sin(x)

# A callable struct (its field an integer: no tangent of its own).
struct Pow
    k::Int
end
(p::Pow)(x) = x^p.k
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{Pow, Float64}
function rrule!!(f::CoDual{Pow}, x::CoDual{Float64})
    k, xv = primal(f).k, primal(x)
    return zero_fcodual(xv^k), dy -> (NoRData(), dy * k * xv^(k - 1))
end
frule!!(f::Dual{Pow}, x::Dual{Float64}) =
    Dual(primal(x)^primal(f).k, primal(f).k * primal(x)^(primal(f).k - 1) * tangent(x))
powered(p, x) = p(x) + p(2x) * x

# A scalar rule used elementwise.
sq(x) = x * x
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{typeof(sq), Float64}
rrule!!(::CoDual{typeof(sq)}, x::CoDual{Float64}) =
    zero_fcodual(primal(x)^2), dy -> (NoRData(), 2 * primal(x) * dy)
squares_by_broadcast(x) = sum(sq.(x) .* x)
function threaded_squares(x)
    y = zeros(length(x))
    Threads.@threads for i in eachindex(x)
        y[i] = sq(x[i]) * x[i]
    end
    sum(y)
end
mapped(x) = sum(map(v -> sq(v) + v, x))

# A matrix kernel: y = A x, whose pullback increments both fdata in place.
matvec(A::Matrix{Float64}, x::Vector{Float64}) = A * x
Mooncake.@is_primitive Mooncake.DefaultCtx ReverseMode Tuple{typeof(matvec), Matrix{Float64}, Vector{Float64}}
function rrule!!(::CoDual{typeof(matvec)}, A::CoDual{Matrix{Float64}}, x::CoDual{Vector{Float64}})
    Av, dA, xv, dx = primal(A), tangent(A), primal(x), tangent(x)
    y = Av * xv
    dy = zero(y)
    function matvec_pullback(::NoRData)
        dA .+= dy * xv'
        dx .+= Av' * dy
        return NoRData(), NoRData(), NoRData()
    end
    return CoDual(y, dy), matvec_pullback
end
kernel_loss(A, x) = sum(abs2, matvec(A, x)) + sum(matvec(A, 2 .* x))

# A Vararg signature.
total(xs...) = sum(xs)
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{typeof(total), Vararg{Float64}}
function rrule!!(::CoDual{typeof(total)}, xs::CoDual{Float64}...)
    y = sum(map(primal, xs))
    return zero_fcodual(y), dy -> (NoRData(), map(_ -> dy, xs)...)
end
vararg_sum(a, b) = total(a, b, a * b) * a
