# Keyword arguments of local functions (defaults reading captured variables, typed keywords,
# several methods with keywords) and of callable objects (a default reading the object).
function f(x)
    off = 0.5
    g(v; by = off, times::Int = 2) = (v + by) * times
    g(x) + g(x; by = 1.0) + g(x; times = 3) + g(x; times = 1, by = 0.0)
end
println(f(1.0))
struct Sc
    a::Float64
end
(s::Sc)(v, k = 2.0; by = s.a) = v * k + by
s = Sc(3.0)
println(s(1.0), " ", s(1.0, 3.0), " ", s(1.0; by = 0.0), " ", s(2.0, 1.0; by = 5.0))
function h(x)
    step(u; dt = 0.1) = u + dt * u
    step(u, n::Int; dt = 0.1) = (for _ in 1:n; u = step(u; dt = dt); end; u)
    step(x, 3; dt = 0.5) + step(x)
end
println(h(1.0))
