# call: weighted(1.0)
# stages: optimised forward
# `w` is assigned once, so code reads it with its type known; the loop of three trips is
# unrolled, and the forwards pass reads `w`'s tangent once and saves it once per call.
w = [0.5, 1.5, 2.0]
function weighted(x)
    s = 0.0
    for i in 1:3
        if i != 2
            s += w[i] * x
        end
    end
    s
end
