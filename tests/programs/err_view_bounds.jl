# A view reads only its own elements: index 3 of a 2-element view is out of bounds.
x = [1.0, 2.0, 3.0, 4.0]
v = view(x, 2:3)
v[3]
