# check: squares_after_check([0.5, -1.2, 2.0, 0.3])
# check: scaled_after_check([0.5, -1.2, 2.0], 1.5)
# check: called_in_a_loop([0.4, 1.1, -0.7])
# check: recursive_fill([0.9, -0.4, 1.3, 0.2])
# check: nested_loops([0.2, 0.8, -0.5])
# check: heat_fresh_arrays([0.1, 0.5, 0.9, 0.4, 0.2])
# check: skip_some_steps([0.3, -0.6, 1.1])
# check: per_step_scale([0.7, -0.2, 0.4])
# Arrays (and scalars) made after an early return, or once per step of an outer loop, and read
# by a later (inner) loop: the reverse pass reads them once per call or step, also when the
# function runs many times in a caller's loop, skips the branch that makes them in some of
# those calls, or calls itself.
function squares_after_check(a)
    n = length(a)
    n == 0 && return 0.0
    out = similar(a)
    for i in 1:n
        out[i] = a[i]^2
    end
    sum(out)
end
function scaled_after_check(a, s)
    isempty(a) && return 0.0
    c = s * 2.0
    out = zeros(length(a))
    for i in eachindex(a)
        out[i] = c * sin(a[i]) + out[i]
    end
    sum(out .* a)
end
# Some calls return before making their array; their pullbacks run between the others'.
function maybe_fill(a, k)
    k % 2 == 0 && return a[1] * k
    buf = zeros(length(a))
    for i in eachindex(a)
        buf[i] = a[i] * k + a[1]
    end
    sum(abs2, buf)
end
function called_in_a_loop(a)
    t = 0.0
    for k in 1:5
        t += maybe_fill(a, k)
    end
    t
end
function fill_rec(a, depth)
    depth == 0 && return sum(a)
    buf = similar(a)
    for i in eachindex(a)
        buf[i] = a[i] * (1.0 + 0.1 * depth)
    end
    fill_rec(buf, depth - 1) + buf[1]
end
recursive_fill(a) = fill_rec(a, 3)
function nested_loops(a)
    length(a) < 2 && return 0.0
    m = [a[i] * a[j] for i in eachindex(a), j in eachindex(a)]
    total = 0.0
    for j in axes(m, 2)
        for i in axes(m, 1)
            total += m[i, j]^2 * a[j]
        end
    end
    total
end
# A fresh array per time step, read by the inner loop over the grid.
function heat_fresh_arrays(u0)
    u = copy(u0)
    n = length(u)
    for t in 1:4
        unew = copy(u)
        for i in 2:n-1
            unew[i] = u[i] + 0.2 * (u[i-1] - 2u[i] + u[i+1])
        end
        u = unew
    end
    sum(abs2, u)
end
# Steps that skip making their array.
function skip_some_steps(a)
    acc = 0.0
    for t in 1:5
        if t % 2 == 0
            continue
        end
        w = a .* t
        for i in eachindex(w)
            acc += w[i]^2 * a[i]
        end
    end
    acc
end
# A scalar and an array made per step, read by two inner loops.
function per_step_scale(a)
    total = 0.0
    for t in 1:3
        s = sum(a) * t
        buf = zeros(length(a))
        for i in eachindex(a)
            buf[i] = s * a[i]
        end
        for i in eachindex(a)
            total += buf[i] * a[i] + s
        end
    end
    total
end
