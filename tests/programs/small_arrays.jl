# Small arrays of known size written as people write them: literals, broadcasts, loops over
# their elements, matrices, arrays that escape, arrays given to functions that change them.
lotka_volterra(u, p) = [p[1] * u[1] - p[2] * u[1] * u[2], p[4] * u[1] * u[2] - p[3] * u[2]]

function rk4(f, u, p, h, steps)
    for _ in 1:steps
        k1 = f(u, p)
        k2 = f(u + h / 2 * k1, p)
        k3 = f(u + h / 2 * k2, p)
        k4 = f(u + h * k3, p)
        u = u + h / 6 * (k1 + 2k2 + 2k3 + k4)
    end
    u
end

println(rk4(lotka_volterra, [1.0, 1.0], [1.5, 1.0, 3.0, 1.0], 0.01, 200))

function norms(x, y)
    v = [x, y, x + y]
    w = zeros(3)
    for i in 1:3
        w[i] = v[i]^2
    end
    s = 0.0
    for i in eachindex(w)
        s += w[i]
    end
    sqrt(s), length(v), size(w, 1), size(w, 2)
end
println(norms(3.0, 4.0))

# A 2×2 matrix literal, indexed by row and column and linearly.
function mat(a)
    A = [a 2.0; 3.0 4.0]
    A[2, 1] + A[3] * A[1, 1] - A[end]
end
println(mat(1.5))

# Read before any write: zero-filled, as `zeros` gives.
function untouched()
    z = zeros(2)
    z[2] = 5.0
    z[1] + z[2]
end
println(untouched())

# The array leaves the function: it stays an array, its size is still known.
function escapes(x)
    v = [x, 2x]
    for i in 1:length(v)
        v[i] += 1
    end
    v
end
println(escapes(1.0))

# Given to a function that changes its length.
grow!(v) = push!(v, 7.0)
function given(x)
    v = [x, x]
    grow!(v)
    length(v), v[end]
end
println(given(2.0))

# A loop with a small constant trip count around a scalar.
function poly(x)
    s = 0.0
    for k in 0:4
        s = s * x + k
    end
    s
end
println(poly(0.5))

# Int and Bool elements.
function counts(n)
    c = [0, 0, 0]
    b = [false, false]
    for i in 1:n
        c[i % 3 + 1] += 1
    end
    b[1] = c[1] > c[2]
    c, b
end
println(counts(7))
