# Small arrays carried around loops (a fresh one each step): each variable sees exactly the
# array Julia gives it, whatever the optimiser keeps in registers.
step(u, h) = [u[1] + h * u[2], u[2] - h * u[1]]

function orbit(n)
    u = [1.0, 0.0]
    for _ in 1:n
        u = step(u, 0.1)
    end
    u
end
println(orbit(10))

# The previous state kept, and read after the loop.
function with_previous(n)
    u = [1.0, 2.0]
    prev = u
    for k in 1:n
        prev = u
        u = u + [k, -k]
    end
    println(prev, " ", u, " ", prev === u)
end
with_previous(3)

# Two states swapped each step, one of them written.
function swapped(n)
    a = [1.0, 1.0]
    b = [2.0, 2.0]
    for k in 1:n
        a, b = b, a
        a[1] += k
    end
    println(a, " ", b)
end
swapped(3)

# One array under two names: a write through one is seen through the other.
function same_object(n)
    a = [1.0, 2.0]
    b = a
    for k in 1:n
        a, b = b, a
        b[1] += 1
    end
    println(a, " ", b, " ", a === b)
end
same_object(3)

# Replaced on some steps only.
function sometimes(n)
    u = [1.0, 1.0, 1.0]
    for k in 1:n
        if k % 2 == 0
            u = u .* 2
        else
            u[k % 3 + 1] = -u[1]
        end
    end
    u
end
println(sometimes(5))

# Every state kept in a vector.
function history(n)
    u = [0.0, 1.0]
    hist = Vector{Vector{Float64}}()
    for k in 1:n
        push!(hist, u)
        u = u + [1.0, k]
    end
    hist[1][1] = 100.0
    println(hist, " ", u)
end
history(3)

# Read through a closure made inside the loop.
function captured(n)
    u = [1.0, 2.0]
    fs = Function[]
    for k in 1:n
        u = u * 2
        v = u
        push!(fs, () -> v[1] + k)
    end
    println([g() for g in fs])
end
captured(3)

# A size mismatch inside the loop shows the state as it is.
function mismatch(n)
    u = [1.0, 2.0]
    for k in 1:n
        u = u + (k < 3 ? [1.0, 1.0] : [1.0, 1.0, 1.0])
    end
    u
end

# Joined without a loop: the array chosen is the one written, the other name sees it.
function chosen(flag)
    v = [1.0, 2.0]
    w = flag ? v : [3.0, 4.0]
    w[1] = 10.0
    println(v, " ", w, " ", v === w)
end
chosen(true)
chosen(false)

# Returned from inside the loop.
function first_above(limit)
    u = [1.0, 1.0]
    for k in 1:100
        u = [u[2], u[1] + u[2]]
        if u[2] > limit
            return u
        end
    end
    u
end
println(first_above(50.0))
println(mismatch(4))
