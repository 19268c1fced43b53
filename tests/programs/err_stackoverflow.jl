forever(n) = forever(n + 1) + 1
forever(0)
