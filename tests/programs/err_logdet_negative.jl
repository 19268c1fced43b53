# The log-determinant of a matrix with a negative determinant is a DomainError from `log`.
using LinearAlgebra
println(logdet([0.0 1.0; 1.0 0.0]))
