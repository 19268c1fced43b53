# `<:` as a function: whether one type is a subtype of another (`eltype(v) <: Real`).
f(v) = eltype(v) <: Real ? sum(v) : length(v)
println(Int <: Real, " ", Float64 <: Integer, " ", Vector{Float64} <: AbstractVector, " ", f([1.5, 2.0]), " ", f(["a", "b"]))
g(x) = eltype(x) <: AbstractFloat ? sum(abs2, x) : 0.0
println(g([1.5, -2.0]), " ", g([1, 2]), " ", Tuple{Int,Float64} <: Tuple{Real,Real}, " ", Union{Int,Float64} <: Real)
# `>:` is `<:` with its operands swapped.
println(Real >: Int, " ", Integer >: Float64, " ", AbstractVector >: Vector{Float64}, " ", (>:)(Number, Float32), " ", (<:)(Int, Real))
