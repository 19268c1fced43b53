# The loop body assigns `k`, so `k` is local to the body: its first read is undefined (the
# condition, outside the body, reads the global).
k = 0
function count_to_three()
    while k < 3
        k += 1
    end
    k
end
println(count_to_three())
