# Loops whose indices are proved in range run without bounds checks in native code; these
# are not (one past the end), so native code still raises BoundsError at the source line.
function in_range(x)
    s = 0.0
    for i in 1:length(x)-1
        s += x[i+1] - x[i]
    end
    s
end
function from_zero(x)
    s = 0.0
    for i in 0:length(x)-1
        s += x[i+1]
    end
    s
end
function past_end(x)
    s = 0.0
    for i in 1:length(x)
        s += x[i+1]
    end
    s
end
x = [1.0, 4.0, 9.0, 16.0]
println(in_range(x))
println(from_zero(x))
println(past_end(x))
