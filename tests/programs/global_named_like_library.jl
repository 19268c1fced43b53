# A global variable named like a library function the program has not used is its own.
sum = 3
println(sum + 1)
