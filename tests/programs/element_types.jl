# `eltype` of types: the element type of their values, `Any` for a type that declares none;
# `collect` of a program type iterated through `iterate` makes a vector of its `eltype`.
println(eltype(UnitRange{Int64}), " ", eltype(Float64), " ", eltype(Vector{Float64}), " ", eltype(typeof(1:3)), " ", eltype(typeof(view([1.0], 1:1))))
struct Bag; items::Vector{Int}; end
Base.iterate(b::Bag, s = 1) = s > length(b.items) ? nothing : (b.items[s], s + 1)
Base.eltype(::Type{Bag}) = Int
println(collect(Bag([1, 2])), " ", eltype(Bag))
struct Box end
println(eltype(Box), " ", eltype(Box()), " ", eltype(Bag([3])))
e = enumerate([1.0, 2.0])
z = zip(1:2, "ab")
println(eltype(e), " ", eltype(typeof(e)), " ", eltype(z), " ", eltype(zip([1], [2.0], [true])))
println(collect(e), " ", collect(z))
