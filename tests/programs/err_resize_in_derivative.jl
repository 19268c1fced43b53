# A derivative or gradient call runs user code that may resize an array read in the same loop:
# each read is checked against the array's current length.
function grow_then_read(x)
    s = 0.0
    for i in eachindex(x)
        g = gradient(t -> (push!(x, t); t * t), 2.0)::Float64
        s = s + x[i] + g
    end
    s + x[end]
end
function shrink(x)
    s = 0.0
    for i in eachindex(x)
        d = derivative(t -> (pop!(x); t * t), 1.0)::Float64
        s = s + x[i] + d
    end
    s
end
println(grow_then_read([1.0, 2.0]))
println(shrink([1.0, 2.0, 3.0, 4.0]))
