# check: layers(Net([0.5 -0.2; 0.3 0.8], [0.1, -0.1], (0.7, [1.5, -0.5])), [0.4, -0.3])
# check: after_a_loop(Net([0.5 -0.2; 0.3 0.8], [0.1, -0.1], (0.7, [1.5, -0.5])), [0.4, -0.3])
# check: scaled_steps(Scale([0.2, 0.4]), [1.0, 2.0, 3.0])
# check: swapped_fields(Holder([1.0, 2.0], [0.5, -1.0]), 3)
# Fields of struct and tuple arguments read in loops and branches: the pullback reads those
# of immutable values (and of their tangents) again rather than saving them per iteration; a
# mutable struct whose field is reassigned between the reads keeps what each read saw.
struct Net
    W::Matrix{Float64}
    b::Vector{Float64}
    head::Tuple{Float64, Vector{Float64}}
end

function layers(net::Net, x)
    s = 0.0
    h = x
    for k in 1:3
        h = tanh.(net.W * h .+ net.b)
        if k > 1
            s += net.head[1] * sum(net.head[2] .* h)
        end
    end
    s + sum(h)
end

function after_a_loop(net::Net, x)
    s = 0.0
    for v in x
        s += v^2
    end
    h = tanh.(net.W * x .+ net.b)
    s + sum(h) * net.head[1] + sum(net.head[2] .* h)
end

struct Scale
    w::Vector{Float64}
end

function scaled_steps(sc::Scale, xs)
    t = 0.0
    for x in xs
        t += sc.w[1] * sin(x * sc.w[2]) * t + x * sc.w[2]
    end
    t
end

mutable struct Holder
    a::Vector{Float64}
    b::Vector{Float64}
end

function swapped_fields(h::Holder, n)
    s = 0.0
    for k in 1:n
        s += sum(h.a .* h.a) * k
        a = h.a
        h.a = h.b
        h.b = a
    end
    s
end
