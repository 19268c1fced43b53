# Keyword arguments of a local function are not supported yet: a clear error at the keyword.
function f(x)
    g(v; by = 1.0) = v + by
    g(x)
end
println(f(1.0))
