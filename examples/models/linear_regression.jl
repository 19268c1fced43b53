# Least-squares linear regression: the mean squared error of X * β against y.
# mooncake grad examples/models/linear_regression.jl --call 'loss(β0())'
# check: loss(β0())
using Statistics

X = [1.0 0.5; 1.0 1.5; 1.0 2.5; 1.0 3.5; 1.0 4.5]
y = [1.2, 2.9, 5.1, 7.2, 8.8]
β0() = [0.0, 1.0]

loss(β) = mean(abs2, y - X * β)

println("loss(β0) = ", loss(β0()))
