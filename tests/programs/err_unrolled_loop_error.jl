# An error raised inside a loop of a few constant trips reports the trip's own values.
function pick(v, k)
    s = 0.0
    for i in 1:3
        s += v[i + k]
        if i == 2 && k > 0
            error("stopped at trip $i with s = $s")
        end
    end
    s
end
println(pick([1.0, 2.0, 3.0, 4.0], 0))
pick([1.0, 2.0, 3.0, 4.0], 1)
