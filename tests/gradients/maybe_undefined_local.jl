# check: q(true, 4.0) => 4.0
# check: q(false, 4.0) => 1.0
# `v` is assigned on one path only; it is read only where it was assigned.
function q(x::Bool, y::Float64)
    if x
        v = y
    end
    z = 1.0
    if x
        z = v
    end
    return z
end
