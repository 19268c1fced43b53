# check: unpack_all([1.5, -0.5, 2.0])
# check: tail_of_arguments_of([2.0, 0.5, -1.5])
# Destructuring tuples, arrays, pairs, named tuples, zip/enumerate elements and a program type
# that defines `Base.iterate`.
struct Span2
    lo::Float64
    hi::Float64
end
Base.iterate(s::Span2) = (s.lo, 1)
Base.iterate(s::Span2, k) = k == 1 ? (s.hi, 2) : nothing
function unpack_all(v)
    a, b = v
    c, d = (v[3] * a, 2)
    p, q = b => sin(a)
    (; x, y) = (x = c, y = q)
    lo, hi = Span2(a * b, exp(c))
    t = 0.0
    for (i, (u, w)) in enumerate(zip(v, (x, y, lo)))
        t += i * u * w
    end
    a * b + c * d + p * q + x * y + lo + hi + t
end
tail_of_arguments(args...) = sum(abs2, args[2:end]) * args[1] + prod(args[[1, 3]])
tail_of_arguments_of(v) = tail_of_arguments(v[1], v[2], v[3])
