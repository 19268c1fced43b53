# A comprehension or generator whose body assigns a variable of the enclosing function updates
# that variable, as Julia's closures do.
function running(v::Vector; scale = 1)
    s = 0
    [(s += x; s * scale) for x in v]
end
function total_of_squares(v)
    n = 0
    t = sum((n += 1; x^2) for x in v)
    (t, n)
end
println(running([1, 2, 3]), " ", running([1, 2]; scale = 10), " ", total_of_squares([1.0, 2.0]))
