# check: outer(0.4)
# check: middle(0.9, -1.1)
inner(x) = x^2 + 1
middle(x, y) = inner(x) * inner(y) - x / y
outer(x) = middle(x, 2x) + inner(middle(x, 1.5))
