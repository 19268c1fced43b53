# Ridge regression fitted in closed form, and the validation loss as a function of the
# (log) penalty: the gradient tunes the penalty through the linear solve.
# mooncake grad examples/models/ridge_validation.jl --call 'validation_loss(θ0())'
# check: validation_loss(θ0())
# check: least_squares_fit(X_train)
using LinearAlgebra
using Statistics

X_train = [1.0 0.2 1.1; 1.0 0.9 -0.3; 1.0 1.7 0.4; 1.0 2.4 1.9; 1.0 3.1 -0.8; 1.0 3.9 0.6]
y_train = [0.9, 2.1, 3.2, 5.4, 5.1, 7.8]
X_valid = [1.0 0.5 0.0; 1.0 2.0 1.0; 1.0 3.5 -0.5]
y_valid = [1.4, 4.3, 6.6]
θ0() = [log(0.5)]

function ridge(X, y, λ)
    cholesky(Symmetric(X' * X + λ * I)) \ (X' * y)
end

function validation_loss(θ)
    β = ridge(X_train, y_train, exp(θ[1]))
    mean(abs2, y_valid - X_valid * β)
end

# Ordinary least squares with `\` (a QR solve), differentiated with respect to the design.
least_squares_fit(X) = sum(abs2, X * (X \ y_train) - y_train)

println("validation loss at λ = 0.5: ", validation_loss(θ0()))
println("OLS coefficients: ", X_train \ y_train)
