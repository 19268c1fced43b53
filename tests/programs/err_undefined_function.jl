x = 2
y = compute(x)
