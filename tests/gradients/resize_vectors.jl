# `resize!` (`Core.array_resize`, whose rule saves the array and its fdata so that the
# pullback gives back the length and the elements a shrink cut off): numeric vectors grown
# with zeros, on a copy and on the input itself (which must hold its original value
# afterwards), and vectors of mutable structs and of arrays, whose new slots are unassigned.
# check: on_copy([1.0, 2.0, 3.0])
# check: on_input([1.0, 2.0, 3.0])
# check: of_mutable_structs([1.0, 2.0, 3.0])
# check: of_arrays([1.0, 2.0])
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
mutable struct Cell
    v::Float64
end
function of_mutable_structs(x)
    cs = [Cell(x[1]), Cell(x[2]), Cell(x[3])]
    resize!(cs, 2)
    resize!(cs, 4)
    cs[3] = Cell(x[3] * x[1])
    cs[4] = cs[1]
    cs[4].v = cs[4].v * 2.0
    s = 0.0
    for c in cs
        s += c.v * c.v
    end
    s
end
function of_arrays(x)
    vs = [x, [x[2]]]
    resize!(vs, 1)
    push!(vs, [x[1] * x[2]])
    resize!(vs, 3)
    vs[3] = vs[2]
    vs[3][1] * vs[1][2]
end
