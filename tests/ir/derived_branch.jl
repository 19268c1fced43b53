# call: f(2.0)
# stages: forward pullback dual
# A branch: the forwards pass records which block ran; the pullback walks back along it.
function f(x)
    if x > 1.0
        y = x * x
    else
        y = 2.0 * x
    end
    y + 1.0
end
