# Arrays and structs handed from one variable to another across loops, branches and returns:
# each variable sees exactly the object Julia gives it, whether or not another still holds it.
struct Pair2
    a::Vector{Float64}
    b::Vector{Float64}
end

# Two variables bound to one array in a loop, then one of them written.
function same_twice(n)
    x = zeros(20)
    a, b = x, x
    for k in 1:n
        a, b = b, a
        a[k] += k
    end
    println(a === b, " ", a === x, " ", sum(x))
end
same_twice(3)

# Swapped every step (the parameters are each other's arguments).
function swapping(n)
    a = fill(1.0, 20)
    b = fill(2.0, 20)
    for _ in 1:n
        a, b = b, a
        a[1] += 10
    end
    println(a[1], " ", b[1])
end
swapping(3)

# A loop-carried array also read after the loop, and the first one kept.
function kept(n)
    first = zeros(20)
    u = first
    for k in 1:n
        v = copy(u)
        v[k] = k
        u = v
    end
    println(sum(first), " ", sum(u), " ", u === first)
end
kept(4)

# A value passed along an edge and still read on the other side.
function read_after(flag)
    x = fill(3.0, 20)
    y = flag ? x : zeros(20)
    y[2] = 7.0
    println(x[2], " ", y[2], " ", x === y)
end
read_after(true)
read_after(false)

# Returns: the argument itself, one array twice in a tuple, a struct of arrays.
pass(x) = x
twice(n) = (v = fill(1.0 * n, 20); (v, v))
function build(n)
    p = Pair2(fill(1.0, 20), fill(2.0, 20))
    q = Pair2(p.b, p.a)
    p, q
end
function returns()
    x = zeros(20)
    println(pass(x) === x)
    a, b = twice(3)
    a[1] = 5.0
    println(b[1], " ", a === b)
    p, q = build(2)
    p.a[1] = 9.0
    println(q.b[1], " ", q.a === p.b)
end
returns()

# Arrays kept in a vector while the loop goes on replacing them.
function history(n)
    u = zeros(20)
    hist = Vector{Vector{Float64}}()
    for k in 1:n
        push!(hist, u)
        u = u .+ k
    end
    push!(hist, u)
    println([h[1] for h in hist], " ", hist[end] === u)
end
history(4)
