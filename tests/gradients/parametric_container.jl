# check: f(0.9)
struct Box{T}
    v::T
end
unbox(b::Box) = b.v
f(x) = unbox(Box(x)) * unbox(Box(x^2)) + unbox(Box((x, 2x)))[2]
