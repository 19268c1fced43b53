# call: move(Particle(1.0, 2.0), 0.5)
# stages: lowered optimised
mutable struct Particle
    pos::Float64
    vel::Float64
end
function move(p, dt)
    p.pos += p.vel * dt
    p.pos
end
