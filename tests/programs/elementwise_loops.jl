# Elementwise loops over float arrays: native code runs two trips at a time where no array
# the loop writes shares memory with another it touches; every case gives Julia's numbers.
function stencil(u, α)
    v = copy(u)
    for i in 2:length(u)-1
        v[i] = u[i] + α * (u[i-1] - 2u[i] + u[i+1])
    end
    v
end

function scale!(x, c)
    for i in 1:length(x)
        x[i] = c * x[i]
    end
    x
end

# Each trip reads what the one before wrote: in order, one at a time.
function running!(x)
    for i in 2:length(x)
        x[i] = x[i-1] + x[i]
    end
    x
end

# Reads one array and writes another, which may be the same array.
function shifted!(dst, src)
    for i in 1:length(dst)-1
        dst[i+1] = 2.0 * src[i] + 1.0
    end
    dst
end

function mix!(out, a, b, n)
    for i in 1:n
        out[i] = sqrt(abs(a[i] - b[i])) / (a[i] + 3.0) - (-b[i])
    end
    out
end

function affine!(out, a, b, n)
    for i in 1:n
        out[i] = abs(a[i] - b[i]) / (a[i] + 3.0) - (-b[i])
    end
    out
end

# Two counters; the written index steps by two.
function evens!(out, a)
    k = 0
    for i in 1:length(a)
        k += 2
        out[k] = a[i]
    end
    out
end

xs(n) = [sin(1.0 * i) for i in 1:n]
grid(m, n) = [cos(1.0 * i + 3.0 * j) for i in 1:m, j in 1:n]

# Column by column; the inner loop reads a row of `B` (a step of a whole column per trip).
function columns!(C, A, B)
    m, n = size(C)
    for j in 1:n
        for i in 1:m
            C[i, j] = A[i, j] * 2.0 - B[j, i] / (1.0 + abs(A[i, j]))
        end
    end
    C
end

function matrices(shapes)
    for (m, n) in shapes
        A = grid(m, n)
        println((m, n), " ", A .- sum(A, dims = 1), " ", A ./ sum(A, dims = 2))
        println(A .* A[1:1, :] .+ A[:, 1:1] .- 1.0)
        println(columns!(zeros(m, n), A, grid(n, m)))
        # Written through one matrix while read through another that shares its memory.
        B = reshape(copy(vec(A)), n, m)
        println(columns!(reshape(B, m, n), A, B))
    end
end

# Sizes from an argument: nothing about them is known before the call.
function cases(ns)
    for n in ns
        println(n, " ", stencil(xs(n), 0.2))
        println(scale!(xs(n), -0.5))
        println(running!(xs(n)))
        println(shifted!(zeros(n), xs(n)))
        x = xs(n)
        println(shifted!(x, x))
        y = xs(2n)
        println(shifted!(reshape(y, 2, n), y))
        b = repeat([1.0, -0.0, NaN, Inf, 2.0, -3.0, 0.0, -1.0, 4.0, 0.5], 4)[1:n]
        println(mix!(zeros(n), xs(n), b, n))
        println(mix!(zeros(n + 1), xs(n + 1), xs(n + 1), n))
        println(affine!(zeros(n), xs(n), b, n))
        println(affine!(zeros(n + 1), xs(n + 1), xs(n + 1), n))
        println(evens!(zeros(2n), xs(n)))
        println(sum(xs(n) .* 2.0 .- xs(n)))
        println(xs(n) + 0.5 * xs(n))
    end
end

cases([0, 1, 2, 15, 16, 17, 33])
matrices([(1, 1), (2, 3), (17, 3), (5, 20)])
# A loop that runs out of its array raises where Julia does.
function overrun(n)
    affine!(zeros(n), xs(n), xs(n - 4), n)
end
println(overrun(20))
