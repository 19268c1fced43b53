# check: final_angle_loss([1.0, 0.2]) => 0.21853102712766306
# check: energy_drift(0.8)
# A first draft of a damped pendulum: two constants at once, a `Base.@kwdef` parameter struct
# with defaults, a semi-implicit Euler loop, and an energy closure.
const g, L = 9.81, 1.0

Base.@kwdef struct Pendulum
    length::Float64 = L
    damping::Float64 = 0.1
    dt::Float64 = 0.01
end

function simulate(p::Pendulum, θ0, ω0; steps = 300)
    θ, ω = θ0, ω0
    for _ in 1:steps
        α = -(g / p.length) * sin(θ) - p.damping * ω
        ω += p.dt * α            # semi-implicit Euler
        θ += p.dt * ω
    end
    return θ, ω
end

function final_angle_loss(x)
    p = Pendulum(length = x[1], damping = x[2])
    θ, ω = simulate(p, 0.5, 0.0)
    (θ - 0.1)^2 + 0.1ω^2
end

function energy_drift(θ0)
    p = Pendulum(damping = 0.0)
    E(θ, ω) = 0.5 * (p.length * ω)^2 + g * p.length * (1 - cos(θ))
    θ, ω = simulate(p, θ0, 0.0; steps = 100)
    E(θ, ω) - E(θ0, 0.0)
end
