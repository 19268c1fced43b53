# call: f([1.0, 2.0], 3.0)
# stages: forward pullback dual
# A write into an argument: the forwards pass saves the element it overwrites; the pullback
# restores it and moves the element's cotangent to the value written.
function f(y, a)
    y[1] = a * y[2]
    y[1] + y[2]
end
