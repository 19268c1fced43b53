# A view's indices must lie within the parent.
A = [1.0 2.0; 3.0 4.0]
c = view(A, :, 3)
