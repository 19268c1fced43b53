# check: f([1.0, 2.0, 3.0, 4.0]) => 42.0
# check: g([1.0 2.0; 3.0 4.0], [0.5, -1.0])
# check: h([0.5, 1.5, -2.0, 3.0])
# check: colnorms([1.0 2.0 3.0; 4.0 5.0 6.0])
# check: scale_head!([1.0, -2.0, 3.0], 0.5) => 5.25
# check: shift([1.0, 2.0, 3.0]) => 9.0
# check: masked([1.0, -1.5, 2.0, -0.5]) => 6.5
# Views read and write their parent: cotangents reach the parent's elements.
function f(x)
    v = view(x, 2:3)
    w = @view x[[4, 1]]
    sum(v .* v) + dot(w, w) + v[2] * w[1]
end
function g(A, b)
    B = copy(A)
    c = view(B, :, 2)
    c .= c .* b .+ 1.0
    r = @view B[1, :]
    r[1] = r[2] * B[2, 1]
    sum(B .^ 2)
end
@views function h(x)
    y = copy(x)
    y[2:end] .= y[1:end-1] .* x[2:end]
    s = 0.0
    for e in y[1:2:end]
        s += sin(e)
    end
    s + sum(y[end-1:end])
end
function colnorms(A)
    s = 0.0
    for c in eachcol(A)
        s += norm(c)
    end
    for r in eachrow(A)
        s += sum(r) * r[1]
    end
    s
end
# Writes into its argument through a view (the argument is restored after the pullback).
function scale_head!(x, a)
    v = view(x, 1:2)
    v .*= a
    x[3] += v[2]
    sum(x .^ 2)
end
# Assigning a view of the same array reads it before the write.
function shift(x)
    y = copy(x)
    y[2:3] = view(y, 1:2)
    sum(y .* x)
end
# Logical masks: broadcasting into the selected places, and a masked view written through.
function masked(x)
    y = copy(x)
    y[y .> 0] .*= 2
    v = view(y, y .< 0)
    v .= v .^ 2
    sum(y .* x)
end
