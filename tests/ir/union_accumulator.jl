# call: acc([1.5, 2.5])
# stages: typed optimised
function acc(x)
    z = 0
    for v in x
        z += v
    end
    z
end
