# `sum` and `dot` of float vectors: rules of the default context (the CLI's and API's default).
# check: loss([1.0, -2.0, 0.5], [0.3, 0.2, -1.0])
function loss(x, y)
    s = sum(x)
    d = dot(x, y) + dot(y, y)
    s * d + dot(x, x)
end
