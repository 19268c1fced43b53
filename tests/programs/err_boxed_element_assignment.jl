# Assigning elements of arrays of arrays, of structs and of `Any` inside functions (native
# code writes them in place), and an index out of bounds.
vs = [zeros(2) for _ in 1:3]
function fill_rows!(vs)
    for k in 1:length(vs)
        vs[k] = [k, 2.0k]
    end
    vs
end
println(fill_rows!(vs))
struct P
    a::Vector{Float64}
    s::String
end
ps = Vector{P}(undef, 2)
function setp!(ps)
    ps[1] = P([1.0], "x")
    ps[2] = P([2.0], "y")
    ps
end
println(setp!(ps))
anys = Any[1, "a", 2.0]
function seta!(xs)
    xs[2] = [1, 2]
    xs[3] = "b"
    xs
end
println(seta!(anys))
function oob!(vs)
    vs[4] = [1.0]
end
oob!(vs)
