# Shapes that do not broadcast raise DimensionMismatch at the dotted expression.
x = [1.0, 2.0, 3.0]
y = [1.0, 2.0]
println(x .* 2)
println(x .+ y)
