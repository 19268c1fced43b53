# check: even_sum(0.8, 5)
even_sum(x, n) = n == 0 ? x : x * 0.5 + odd_sum(x, n - 1)
odd_sum(x, n) = n == 0 ? -x : sin(x) + even_sum(x, n - 1)
