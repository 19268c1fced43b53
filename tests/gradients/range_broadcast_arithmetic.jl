# check: f([0.5, -1.0, 2.0])
# check: g([0.5, -1.0, 2.0])
# A range among the operands of arithmetic: the operations run one by one (a vector times a
# range is an ordinary broadcast), the integer range arithmetic gives a range.
f(x) = sum(x .* (1:3) .+ (2 .* (1:3)) .^ 2 .* x)
g(x) = sum(sin.(x .- (0:2)) .* ((1:3) .+ 1))
