# Searching a string from past its end is Julia's BoundsError.
println(findnext("b", "abc", 4))
println(findnext("b", "abc", 5))
