# Cube roots, degrees and radians, flipsign, evalpoly.
println(cbrt(27.0), " ", cbrt(-8), " ", cbrt(2.0), " ", cbrt(1f0), " ", deg2rad(180), " ", rad2deg(π / 2), " ", deg2rad(90f0))
println(flipsign(3, -1.0), " ", flipsign(-2.5, 1), " ", flipsign(2.0, -0.0), " ", evalpoly(2.0, (1.0, 2.0, 3.0)), " ", evalpoly(3, [1, 1]))
