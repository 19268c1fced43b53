# `parse` raises Julia's error for text that is not an integer.
println(parse(Int, "12"))
println(parse(Int, "12a"))
