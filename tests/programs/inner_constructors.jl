struct Interval
    lo::Float64
    hi::Float64
    function Interval(a, b)
        a <= b || error("empty interval")
        new(a, b)
    end
end
println(Interval(1, 2))
width(i::Interval) = i.hi - i.lo
println(width(Interval(0.5, 3)))
struct Wrapped{T}
    x::T
    Wrapped{T}(v) where {T} = new(v * 2)
end
println(Wrapped{Float64}(1.5))
mutable struct Counter
    n::Int
    Counter() = new(0)
end
c = Counter()
c.n += 5
println(c.n)
Interval(3, 1)
