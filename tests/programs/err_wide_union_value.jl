# A union with an abstract member has no value yet (in a signature, `isa` or a field it works).
g(x::Union{Number,String}) = 1
println(g(2), " ", 2 isa Union{Number,String})
T = Union{Number,String}
