# Ranges built from values that carry derivatives: their elements are start + (i - 1) * step
# however exactly the range is computed, so the derivatives are those of that formula.
# check: spaced(2.0)
# check: spaced(0.0)
# check: stepped(0.3)
# check: started(1.0)
# check: scaled(2.0)
# check: shifted_sines(1.5)
# check: scaled_and_divided(2.0)
# check: lin(2.0)
# check: reversed_range(0.7)
spaced(x) = sum(abs2, range(0.0, x, length = 5))
stepped(x) = sum(collect(0.0:x:1.0) .^ 2)
started(x) = sum(range(x, step = 0.5, length = 4) .* (1:4))
scaled(a) = sum(a .* (0:0.1:1)) + (a * (0:0.25:1))[3]
shifted_sines(a) = sum(sin.((0:0.1:1) .* a .+ a))
scaled_and_divided(a) = sum(abs2, (1:4) ./ a) + last((0:0.5:2) / a) + (a .- (0:0.5:2))[2]
lin(a) = sum(abs2, LinRange(0, 1, 4) .* a .+ a)
# A reversed range of differentiated values is a range too.
reversed_range(a) = sum(reverse(range(a, 3a; length = 4)) .* [1.0, 2.0, 3.0, 4.0]) + sum(sort(a:-0.5:a - 1))
