# Cube roots, degrees, flipsign and polynomials in one function.
# check: f(1.7)
# check: f(-0.8)
# check: g([0.5, -1.5, 2.0])
f(x) = cbrt(x) * deg2rad(x) + evalpoly(x, (1.0, -2.0, 0.5)) + flipsign(x, -1.0) + rad2deg(x) / 100
g(v) = evalpoly(0.3, v) + sum(cbrt, v)
