# call: step(1.0, 2.0, 0.1)
# stages: optimised forward pullback
# A literal vector, a broadcast over it and a loop over its elements: the sizes are known, the
# broadcast is inlined, the loops are unrolled and the arrays become scalars, in the primal and
# in the derived code (no array is allocated or saved).
rhs(u) = [u[2], -u[1]]
function step(x, y, h)
    u = [x, y]
    v = u + h * rhs(u)
    s = 0.0
    for i in 1:2
        s += v[i]^2
    end
    s
end
