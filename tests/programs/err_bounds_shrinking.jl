# A loop over the original length of a vector that shrinks inside the loop: the index is
# within the length read before the loop but not within the current one, so it stays checked.
function shrinking(x)
    s = 0.0
    n = length(x)
    for i in 1:n
        s += x[i]
        pop!(x)
    end
    s
end
println(shrinking([1.0, 2.0, 3.0, 4.0]))
