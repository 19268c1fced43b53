# Native code's fast paths for boxed values: tuples built and read, vectors of vectors and of
# tuples holding arrays pushed and popped, sin and cos of one value computed together, and an
# empty vector popped (the error comes from the generic path, as in the interpreter).
function stack_of_vectors(n)
    st = Vector{Float64}[]
    for i in 1:n
        push!(st, [1.0 * i, 2.0 * i])
    end
    s = 0.0
    while length(st) > 0
        v = pop!(st)
        s += v[1] * v[2]
    end
    s
end
println(stack_of_vectors(4))

function stack_of_tuples(n)
    st = Tuple{Vector{Float64},Int}[]
    for i in 1:n
        push!(st, (fill(0.5 * i, i), i))
    end
    total = 0.0
    for k in 1:n
        t = pop!(st)
        total += sum(t[1]) * t[2]
    end
    (total, length(st))
end
println(stack_of_tuples(3))

struct Pair2
    a::Vector{Float64}
    b::Float64
end
swap(p) = (p.b, p.a)
println(swap(Pair2([1.0, 2.0], 3.0)))

function sincos_sum(x)
    s = 0.0
    for v in x
        s += sin(v) * cos(v) + cos(2v)
    end
    s
end
println(sincos_sum([0.1, 1.0, 1.0e6, -3.5]))

function drain(st)
    pop!(st)
    pop!(st)
end
println(drain(Any[[1.0], "two"]))
println(drain(Vector{Float64}[[1.0]]))
