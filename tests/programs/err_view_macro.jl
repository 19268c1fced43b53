# `@view` needs an indexing expression.
x = [1.0, 2.0]
v = @view x
