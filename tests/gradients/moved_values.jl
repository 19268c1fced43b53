# check: history_loss(profile(20))
# check: swapping_loss(profile(20))
# check: branch_loss(profile(20), true)
# check: branch_loss(profile(20), false)
# Arrays handed between variables across loops, branches and returns while their
# derivatives are taken: each step's array is saved for the reverse pass and also kept.
profile(n) = [0.3 + sin(1.0 * i) for i in 1:n]

function history_loss(x)
    u = x
    hist = Vector{Vector{Float64}}()
    for k in 1:4
        push!(hist, u)
        u = tanh.(u) .* k
    end
    s = 0.0
    for h in hist
        s += sum(h .* u)
    end
    s
end

function swapping_loss(x)
    a = copy(x)
    b = 2.0 .* x
    for k in 1:3
        a, b = b, a
        a[k] = a[k] * b[k + 1]
    end
    sum(a .* a) + sum(b)
end

function pair_of(x)
    y = sin.(x)
    (y, y)
end

function branch_loss(x, flag)
    y = flag ? x : cos.(x)
    p, q = pair_of(y)
    z = y .* p
    sum(z) + sum(q .* x)
end
