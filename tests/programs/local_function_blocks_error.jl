# Methods of one local function in two different blocks are not supported yet.
function f(x)
    g(v::Int) = v
    if x > 0
        g(v::Float64) = 2v
    end
    g(1)
end
println(f(1.0))
