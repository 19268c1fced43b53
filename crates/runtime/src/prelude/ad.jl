# AD inside the language: `derivative` by forward mode, `gradient` by reverse mode. Both can be
# differentiated again (forward mode over either), with no perturbation confusion: each level's
# tangents are separate values of the rule it runs.

# The derivative of `f` at the float `x` (a tangent of `f(x)`: a float for a float result).
function derivative(f, x::Float64)
    d = Core.dual_apply(f, Core.zero_tangent(f), x, 1.0)
    Core.return_type(f, Float64) === Float64 ? d::Float64 : d
end
function derivative(f, x::Float32)
    d = Core.dual_apply(f, Core.zero_tangent(f), x, 1.0f0)
    Core.return_type(f, Float32) === Float32 ? d::Float32 : d
end

# The gradient of `f` (returning a float) at `x`: of the same shape as `x`.
gradient(f, x::Float64) = Core.grad_apply(f, x)::Float64
gradient(f, x::Float32) = Core.grad_apply(f, x)::Float32
gradient(f, x::Vector{Float64}) = Core.grad_apply(f, x)::Vector{Float64}
gradient(f, x::Vector{Float32}) = Core.grad_apply(f, x)::Vector{Float32}
gradient(f, x) = Core.grad_apply(f, x)
