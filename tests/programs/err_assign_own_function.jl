# A program's own function named like a library one is a constant binding, as every function is.
sum(x) = 1
sum = 3
