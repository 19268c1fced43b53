# A size mismatch involving a small array names both sizes.
f(x) = [x, x] + [x, x, x]
f(1.0)
