# On the left of `=`, a named tuple lists names only: `(; a = 1) = t` is not an assignment.
t = (a = 2.0,)
(; a = 1) = t
