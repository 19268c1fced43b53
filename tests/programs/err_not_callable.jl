x = 3.0
println((x + 1)x)
# Juxtaposing two parenthesised expressions is a call, as in Julia.
println((x + 1)(x - 1))
