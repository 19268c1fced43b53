# check: f([0.5, -1.0, 2.0])
# check: g([0.5, -1.0, 2.0])
# check: shifted(0.5)
# check: weighted([0.5, -1.0, 2.0])
# A range among the operands of arithmetic: the operations run one by one (a vector times a
# range is an ordinary broadcast), the integer range arithmetic gives a range.
f(x) = sum(x .* (1:3) .+ (2 .* (1:3)) .^ 2 .* x)
g(x) = sum(sin.(x .- (0:2)) .* ((1:3) .+ 1))
# An integer range plus or minus a float is a float range.
shifted(a) = sum(abs2, (1:4) .+ a) + last(a .- (1:2:7))
weighted(x) = sum(x .* ((1:3) .- 0.5))
