# An rrule!! whose output fdata has another size than its output: an error naming the rule at
# the call, never an out-of-bounds write or a wrong gradient.
using Mooncake
import Mooncake: rrule!!, CoDual, NoRData, primal, tangent
doubled(x::Vector{Float64}) = 2 .* x
Mooncake.@is_primitive Mooncake.DefaultCtx Tuple{typeof(doubled), Vector{Float64}}
function rrule!!(::CoDual{typeof(doubled)}, x::CoDual{Vector{Float64}})
    y = doubled(primal(x))
    dy = zeros(length(y) - 1)
    function doubled_pullback(::NoRData)
        tangent(x) .+= 2 .* dy
        return NoRData(), NoRData()
    end
    return CoDual(y, dy), doubled_pullback
end
loss(x) = sum(doubled(x))
println(gradient(loss, [1.0, 2.0, 3.0]))
