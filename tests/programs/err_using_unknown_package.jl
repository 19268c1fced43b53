# A package this implementation does not provide is an error at the `using` line.
using LinearAlgebra
using Distributionz
println("not reached")
