# An immutable struct cannot hold a value of its own type yet.
struct Tree
    v::Float64
    left::Union{Tree, Nothing}
end
println("not reached")
