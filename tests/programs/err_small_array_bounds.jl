# An index out of range of a small array raises Julia's BoundsError.
function g(x)
    v = [x, 2x]
    v[3]
end
g(1.0)
