# check: tree(0.5, 6)
tree(x, n) = n <= 1 ? x : tree(x * 0.9, n - 1) + tree(x * 1.1, n - 2)
