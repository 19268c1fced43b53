# `resize!` on numeric vectors: shrinking pops (saving what it removes), growing pushes zeros;
# both on a copy and on the input itself (which must hold its original value afterwards).
# check: on_copy([1.0, 2.0, 3.0])
# check: on_input([1.0, 2.0, 3.0])
function on_copy(x)
    y = copy(x)
    resize!(y, 2)
    s = y[1] * y[2]
    resize!(y, 4)
    y[4] = x[3]^2
    s + sum(y)
end
function on_input(x)
    resize!(x, 4)
    x[4] = x[1] * x[2]
    s = sum(x)
    resize!(x, 3)
    s * x[3]
end
