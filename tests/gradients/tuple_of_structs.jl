# A tuple of structs indexed by a run-time index (the loop variable).
# check: tuple_loop([1.0, 2.0, 3.0])
struct Q
    a::Float64
    b::Float64
end
function tuple_loop(x)
    t = (Q(x[1], x[2]), Q(x[3], 1.0), Q(x[1] * x[3], x[2]))
    s = 0.0
    for i in 1:3
        s += t[i].a * t[i].b
    end
    s
end
