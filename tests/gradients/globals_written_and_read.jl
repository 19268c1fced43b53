# Globals through reverse mode: a global's tangent starts at zero in each gradient and every
# read of its value shares it, so a derivative stored into a global array by one function and
# read back by another is kept. Non-constant globals (of type `Any`) are read the same way.
# check: through_buffer([1.0, 2.0])
# check: nonconst_scale([0.5, -1.5])
# check: buffer_loop([0.3, 0.7, -0.2])
const BUF = zeros(3)
store!(k, v) = (BUF[k] = v; nothing)
load(k) = BUF[k]
function through_buffer(x)
    store!(1, x[1] * 3.0)
    store!(2, x[2])
    load(1)^2 + load(2) * load(1)
end

w = 2.0
weights = [1.0, -0.5]
nonconst_scale(x) = w * x[1] + weights[2] * x[2]^2

function buffer_loop(x)
    for i in eachindex(x)
        store!(i, sin(x[i]))
    end
    s = 0.0
    for i in 1:3
        s += load(i) * load(4 - i)
    end
    s
end
