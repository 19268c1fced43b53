# Dictionaries and sets as programs use them: counting, grouping, lookups with defaults,
# merging, deleting, set algebra, and Julia's key equality (`isequal`: 1 and 1.0 are one key,
# 0.0 and -0.0 are two, NaN is one). Output that depends on the table's order is sorted.
words = split("the cat sat on the mat the end")
counts = Dict{String,Int}()
for w in words
    counts[String(w)] = get(counts, String(w), 0) + 1
end
println(sort(collect(counts)))
println(length(counts), " ", counts["the"], " ", haskey(counts, "dog"), " ", get(counts, "dog", -1))

# Grouping with get! and a default made on demand.
groups = Dict{Int,Vector{Int}}()
for i in 1:10
    push!(get!(() -> Int[], groups, i % 3), i)
end
println(groups[0], " ", groups[1], " ", groups[2])
edges = [(1, 2), (1, 3), (2, 3), (3, 4)]
adjacency = Dict{Int,Vector{Int}}()
for (a, b) in edges
    push!(get!(adjacency, a, Int[]), b)
    push!(get!(adjacency, b, Int[]), a)
end
println([adjacency[k] for k in sort(collect(keys(adjacency)))])

# Construction: pairs, generators, zip, tuples; the joined types of mixed pairs.
squares = Dict(i => i^2 for i in 1:5)
println(typeof(squares), " ", squares[4], " ", sum(values(squares)), " ", sum(keys(squares)))
println(typeof(Dict(:a => 1, :b => 2.0)), " ", typeof(Dict(zip(["x", "y"], [1.5, 2.5]))))
println(typeof(Dict([(1, 'a'), (2, 'b')])), " ", typeof(Dict()), " ", isempty(Dict()))
println(Dict(:a => 1), " ", Dict{Symbol,Any}(:b => 2), " ", Dict{String,Float64}())

# Keys equal by `isequal`.
m = Dict{Any,String}()
m[1] = "one"; m[1.0] = "one again"; m[0.0] = "zero"; m[-0.0] = "minus zero"; m[NaN] = "nan"; m[-NaN] = "nan again"
println(length(m), " ", m[1], " ", m[0.0], " ", m[-0.0], " ", m[NaN])
println(hash(1) == hash(1.0), " ", hash(0.0) == hash(-0.0), " ", isequal((1, NaN), (1.0, NaN)), " ", hash((1, "a")) == hash((1.0, "a")))

# Tuples and symbols as keys, two-index lookup.
grid = Dict((i, j) => i * 10 + j for i in 1:3, j in 1:2)
println(grid[2, 1], " ", grid[(3, 2)], " ", length(grid))

# Updating, deleting, popping, merging.
d = Dict("a" => 1, "b" => 2, "c" => 3)
d["a"] += 10
delete!(d, "b")
println(sort(collect(d)), " ", pop!(d, "c"), " ", pop!(d, "zz", 0), " ", length(d))
e = merge(Dict("x" => 1, "y" => 2), Dict("y" => 20, "z" => 30.5))
println(typeof(e), " ", sort(collect(e)))
f = mergewith(+, Dict(:p => 1, :q => 2), Dict(:q => 5, :r => 7))
println(sort(collect(f)), " ", filter(p -> p.second > 3, f) == Dict(:q => 7, :r => 7))
println(Dict(:a => 1, :b => 2) == Dict(:b => 2, :a => 1), " ", (:a => 1) in Dict(:a => 1), " ", (:a => 2) in Dict(:a => 1))
println(count(p -> iseven(p.second), f), " ", maximum(values(f)), " ", first(sort(collect(keys(f)))))
big = Dict{Int,Int}()
for i in 1:5000
    big[i] = 2i
end
for i in 1:2:5000
    delete!(big, i)
end
println(length(big), " ", sum(values(big)), " ", all(haskey(big, i) == iseven(i) for i in 1:5000))
empty!(big)
println(length(big), " ", isempty(big), " ", get(big, 2, :gone))

# Sets.
s = Set([3, 1, 2, 3, 1])
println(length(s), " ", 2 in s, " ", 5 in s, " ", sort(collect(s)), " ", typeof(s))
push!(s, 10)
delete!(s, 1)
println(sort(collect(s)), " ", sum(s))
a, b = Set([1, 2, 3, 4]), Set([3, 4, 5])
println(sort(collect(union(a, b))), " ", sort(collect(intersect(a, b))), " ", sort(collect(setdiff(a, b))), " ", sort(collect(symdiff(a, b))))
println(union([3, 1], [1, 2], [5]), " ", intersect([4, 1, 2, 1], [1, 4]), " ", setdiff([5, 1, 2, 1], [2]), " ", symdiff([1, 2, 3], [3, 4]))
println(Set([1, 2]) ⊆ a, " ", a ⊆ b, " ", [1, 1, 2] ⊆ [2, 1], " ", issetequal([1, 2], [2, 1, 1]), " ", isdisjoint(a, [9]))
println(a ∪ b == Set(1:5), " ", a ∩ b == Set([3, 4]), " ", Set([1.0]) == Set([1]), " ", typeof(union(Set([1]), [2.5])))
println(Set([7]), " ", Set{String}(), " ", Set(Any[:a]), " ", Set("aab") == Set(['a', 'b']))
t = Set{Int}()
for x in [5, 3, 5, 8]
    x in t || push!(t, x)
end
println(length(t), " ", pop!(t, 3), " ", length(t), " ", sort(collect(filter(isodd, Set(1:9)))))

# Extremes by value, and broadcasting over the values or keys (a dictionary itself cannot be
# broadcast over).
scores = Dict("ann" => 3.5, "bob" => 7.25, "cy" => -1.0)
println(findmax(scores), " ", findmin(scores), " ", argmax(scores), " ", count(values(scores) .> 0), " ", sort(length.(keys(scores))))
try
    scores .+ 1
catch err
    println(err)
end

# keys and values iterate in the same order.
h = Dict(:x => 1, :y => 2, :z => 3)
println(collect(keys(h)) == first.(collect(h)), " ", collect(values(h)) == last.(collect(h)), " ", keys(Dict(:k => 1)), " ", values(Dict(:k => 1.5)))

# An IdDict tells apart equal arrays.
u, v = [1, 2], [1, 2]
ids = IdDict{Vector{Int},String}()
ids[u] = "u"; ids[v] = "v"
println(length(ids), " ", ids[u], " ", ids[v], " ", haskey(ids, [1, 2]))

# Structs are keys by value, mutable structs by identity; nested tables; a table inside
# itself; values printed in their type's context.
struct Cell
    i::Int
    j::Int
end
mutable struct Counter
    n::Int
end
cells = Dict(Cell(1, 2) => "a", Cell(3, 4) => "b")
c1, c2 = Counter(0), Counter(0)
by_object = Dict(c1 => 1, c2 => 2)
println(cells[Cell(1, 2)], " ", haskey(cells, Cell(9, 9)), " ", length(by_object), " ", by_object[c2])
nested = Dict(:outer => Dict(:inner => [1, 2]))
push!(nested[:outer][:inner], 3)
println(nested, " ", Dict{String,Set{Int}}("a" => Set([5])))
vectors = Dict([1, 2] => "vec")
println(vectors[[1, 2]], " ", haskey(vectors, [1.0, 2.0]), " ", haskey(vectors, 1:2))
loop = Dict{Symbol,Any}()
loop[:me] = loop
println(loop)
println(Dict(1 => 1.0f0), " ", Dict(1 => nothing), " ", Dict('a' => 'b'), " ", Set([(1, 2), (1, 2), (2, 1)]) == Set([(2, 1), (1, 2)]))
println(isequal(Dict(1 => NaN), Dict(1 => NaN)), " ", Dict(1 => NaN) == Dict(1 => NaN), " ", Dict(1 => 2) == Dict(1.0 => 2.0))

# Errors as Julia raises them.
try
    counts["missing"]
catch err
    println(err)
    println(sprint(showerror, err))
end
try
    Dict{Int,Int}()["a"] = 1
catch err
    println(typeof(err))
end
try
    1 in Dict(1 => 2)
catch err
    println(typeof(err))
end
try
    pop!(Set{Int}())
catch err
    println(err)
end
counts["missing"]
