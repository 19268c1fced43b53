# Values the pullback computes again instead of saving (see docs/ad-design.md, "Saving or
# computing again"): reads of arrays and cheap arithmetic on them. A read is computed again
# only when nothing after it in its block writes memory; these programs write the arrays they
# read, in the same block after the read, in later iterations and after the loop.
# check: read_then_write([0.5, -1.5, 2.0, 0.25])
# check: write_later_iteration([0.3, 0.6, -0.9, 1.2])
# check: overwritten_after_loop([1.5, -0.5, 0.75])
# check: local_array([0.2, 0.4, -0.6])
# check: two_arrays([0.5, 1.0, 1.5], [2.0, -1.0, 0.5])
# check: shifted_reads([0.1, -0.2, 0.3, -0.4, 0.5])

# `x[i]` is read and then overwritten in the same block: the read must be saved.
function read_then_write(x)
    s = 0.0
    for i in eachindex(x)
        a = x[i]
        x[i] = 2a + 1
        s += a^2 * x[i]
    end
    s
end

# Iteration i writes x[i+1], which iteration i+1 reads.
function write_later_iteration(x)
    s = 0.0
    for i in 1:length(x)-1
        d = x[i+1] - x[i]^2
        s += d^2
        x[i+1] = x[i+1] * 0.5 + x[i]
    end
    s + x[end]^2
end

# The loop only reads; the array is overwritten afterwards.
function overwritten_after_loop(x)
    s = 0.0
    for i in eachindex(x)
        s += (1 - x[i])^2 * x[i]
    end
    for i in eachindex(x)
        x[i] = 3.0
    end
    s * x[1]
end

# An array made in the function (an entry-block value) and filled, then read in a loop.
function local_array(x)
    y = copy(x)
    for i in eachindex(y)
        y[i] = y[i]^2 + 1
    end
    s = 0.0
    for i in eachindex(y)
        s += (y[i] - x[i]) * y[i]
    end
    s
end

function two_arrays(x, w)
    s = 0.0
    for i in eachindex(x)
        s += (w[i] * x[i] - 1)^2
    end
    s
end

function shifted_reads(x)
    s = 0.0
    for i in 2:length(x)-1
        s += (x[i-1] - 2x[i] + x[i+1])^2
    end
    s
end
