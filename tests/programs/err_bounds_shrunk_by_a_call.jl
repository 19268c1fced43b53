# A vector shrunk by a function called between reading its length and the loop over that
# length: the loop's reads stay checked (what the call did to the vector is not known where
# the loop is compiled), and the read past the new end raises.
function drop_last!(v)
    pop!(v)
    nothing
end

function shrunk_by_a_call(x)
    n = length(x)
    drop_last!(x)
    s = 0.0
    for i in 1:n
        s += x[i]
    end
    s
end

# A call after the loop changes nothing the loop read.
function summed_then_shrunk(x)
    s = 0.0
    for i in 1:length(x)
        s += x[i]
    end
    drop_last!(x)
    (s, length(x))
end
println(summed_then_shrunk([1.0, 2.0, 3.0]))
println(shrunk_by_a_call([1.0, 2.0, 3.0]))
