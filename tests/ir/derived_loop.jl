# call: f([1.0, 2.0, 3.0])
# stages: forward pullback dual
# A loop over an array: the pullback runs the iterations backwards, reading the array's
# elements again and accumulating into the array's tangent.
function f(x)
    s = 0.0
    for i in eachindex(x)
        s += x[i] * x[i]
    end
    s
end
