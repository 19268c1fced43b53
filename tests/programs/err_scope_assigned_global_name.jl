# Assigning `k` anywhere in a function makes `k` local to the whole function, so the first
# read does not see the global `k`.
k = 0
function count_up()
    println(k)
    k += 1
end
count_up()
