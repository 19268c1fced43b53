# call: f(2.0, 3.0)
# stages: forward pullback dual
# Straight-line code: the pullback applies each primitive's partials in reverse order.
f(x, y) = x * y + sin(x)
