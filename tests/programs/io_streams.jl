# `print`, `println`, `show`, `write` and `join` to `stdout`, `stderr` and `IOBuffer`s;
# `sprint`; a program's own `show` and `print` methods, used wherever its values are printed.
print(stdout, "a", 1, 2.5, "\n")
println(stdout, "b ", :sym, " ", [1, 2])
show(stdout, "quoted")
println()
n = write(stdout, "written\n")
println(n)
join(stdout, [1, 2, 3], ", ")
println()
println(stderr, "to standard error")
io = IOBuffer()
print(io, "x = ", 3)
println(io, ", y = ", 4.0)
show(io, [1.5, 2.5])
println(sprint(print, 1.5), " ", sprint(show, "s"), " ", sprint(join, ("a", "b"), "-"))
struct Point
    x::Float64
    y::Float64
end
Base.show(io::IO, p::Point) = print(io, "⟨", p.x, ", ", p.y, "⟩")
p = Point(1.0, 2.5)
println(p)
println([p, Point(0.0, -1.0)])
println((p, 1), " ", (a = p,))
println("interpolated: $p")
println(string(p), " ", repr(p), " ", sprint(show, p))
mutable struct Counter
    n::Int
end
Base.print(io::IO, c::Counter) = print(io, "Counter at ", c.n)
Base.show(io::IO, c::Counter) = print(io, "Counter(", c.n, ")")
c = Counter(3)
println(c)
println([c])
print(c, "\n")
println(string(c), " ", repr(c))
struct Wrapper
    inner::Point
end
println(Wrapper(p))
