# The 1-d heat equation by explicit finite differences; the loss compares the final
# temperature profile with a measured one, as a function of the initial profile.
# mooncake grad examples/models/heat_equation.jl --call 'misfit(u0())'
# check: misfit(u0())
function step(u, α)
    n = length(u)
    v = copy(u)
    for i in 2:n-1
        v[i] = u[i] + α * (u[i-1] - 2u[i] + u[i+1])
    end
    v
end

function evolve(u, α, steps)
    for _ in 1:steps
        u = step(u, α)
    end
    u
end

measured = [0.0, 0.2, 0.35, 0.4, 0.35, 0.2, 0.0]
u0() = [0.0, 0.1, 0.5, 1.0, 0.5, 0.1, 0.0]
misfit(u) = sum(abs2, evolve(u, 0.2, 10) - measured)

println("misfit(u0) = ", misfit(u0()))
