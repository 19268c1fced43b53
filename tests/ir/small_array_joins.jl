# call: energy_after(1.0, 0.5, 0.1)
# stages: optimised forward pullback
# A state vector made afresh each step of a loop: the loop carries its two elements as
# values, in the primal and in the derived code (no array is allocated or saved per step).
rhs(u) = [u[2], -u[1]]
function energy_after(x, y, h)
    u = [x, y]
    for _ in 1:50
        u = u + h * rhs(u)
    end
    u[1]^2 + u[2]^2
end
