# Loops whose iterations the pullback counts instead of recording (see docs/ad-design.md):
# induction variables starting at a constant or an argument, counting up by 1 or 2 or down,
# inner loops whose start depends on the outer one, zero-trip loops, `continue` and `break`.
# check: tail_sum([0.3, -1.2, 0.7, 2.0], 2)
# check: tail_sum([0.3, -1.2], 5)
# check: triangle([0.5, -0.25, 1.5])
# check: strided([0.1, 0.2, 0.3, 0.4, 0.5])
# check: countdown([1.5, -0.5, 2.5])
# check: skip_some([1.0, -2.0, 3.5, 0.5, 4.0])
# check: nested_exit([0.4, 0.9, -0.3, 1.7], 1.0)
function tail_sum(x, k)
    s = 0.0
    for i in k:length(x)
        s += x[i]^2 * i
    end
    s
end

function triangle(x)
    s = 0.0
    for i in eachindex(x)
        for j in i:length(x)
            s += x[i] * x[j] * (j - i + 1)
        end
    end
    s
end

function strided(x)
    s = 0.0
    i = 1
    while i <= length(x)
        s += sin(x[i]) * i
        i += 2
    end
    s
end

function countdown(x)
    s = 1.0
    i = length(x)
    while i >= 1
        s = s * x[i] + i
        i -= 1
    end
    s
end

function skip_some(x)
    s = 0.0
    for i in eachindex(x)
        if x[i] < 0
            continue
        end
        if s > 10.0
            break
        end
        s += x[i] * x[i]
    end
    s
end

# The inner loop's exit leads straight back to the outer loop's header; a return leaves both.
function nested_exit(x, t)
    s = 0.0
    for i in eachindex(x)
        j = 1
        while j <= i
            s += x[j] * x[i]
            if s > 100.0 * t
                return s
            end
            j += 1
        end
    end
    s * t
end
